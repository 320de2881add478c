"""The screens the kiosk draws: :mod:`.table` (one per poker table) and :mod:`.wall`.

:mod:`kiosk.render` is the entry point; :mod:`.widgets` holds the drawing
primitives and :mod:`.common` the panels both screens share.
"""
