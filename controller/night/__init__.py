"""The whole system on one computer, at the top of the house: only the ``floorman``
command (``controller/cli.py``) imports this room.

- :mod:`.night`: ``floorman night``: a real club night on the director's machine (the
  room's broker, the accounts, the controller, the console, the screens' join code);
- :mod:`.demo`: ``floorman demo``: a broker, the controller, the console, a wall and
  three table screens in one window, the dealers played if asked;
- :mod:`.shots`: named moments of a real tournament rendered by the real screens
  (the golden images and docs/gallery.md);
- :mod:`.pairing`: the door where a new screen trades the join code for its account;
- :mod:`.cli`: the ``night`` and ``demo`` verbs.
"""
