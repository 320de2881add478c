"""The club's memory across tournaments: players, seasons, imported tournaments and
standings, in one SQLite file per club (docs/club.md).

Small modules, one job each: :mod:`.db` (the file, its schema and migrations),
:mod:`.players` (the player list, aliases, near duplicates), :mod:`.seasons` (which
season a date belongs to), :mod:`.imports` (a finished tournament's log into the
database), :mod:`.standings` (the season's table by the club's rules), :mod:`.stacks`
(start stacks from the standings, 003 8 / 000 4.18), :mod:`.export` (backup, restore,
plain CSV/JSON) and :mod:`.cli` (``floorman club …``).
"""
