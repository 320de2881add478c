"""The files Floorman ships, as package data: ``controller.data.clubs`` (the club presets),
``.tournaments`` (sample tournament files), ``.kiosk`` (kiosk files) and ``.systemd`` (unit
files and the Mosquitto drop-in).

Their sources stay in ``config/`` and ``systemd/`` at the top of the repository;
``pyproject.toml`` maps each of these packages onto its folder. Read them through
:mod:`controller.resources`, never through paths of a checkout.
"""
