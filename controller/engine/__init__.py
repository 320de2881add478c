"""The pure tournament core: rules with no I/O, no threads and no clock reads.

Every function here takes the current time as an argument (seconds on the
controller's clock), so every decision is reproducible from the event log.
"""
