"""The record of the night: the durable event log and what keeps it honest.

- :mod:`.store`: the SQLite event log (WAL, fsync before an event is acknowledged, the
  hash chain that ``floorman verify`` walks);
- :mod:`.snapshot`: the state after the first N events, so a start does not replay all;
- :mod:`.lock`: one controller per log (a file lock);
- :mod:`.floor`: the durable tournament, the engine and its log as one (an event is
  applied only once it is stored).
"""
