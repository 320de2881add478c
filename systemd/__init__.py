# This folder is the package controller.data.systemd of an installed Floorman (pyproject.toml);
# controller/resources.py finds its files through it. Nothing to edit here.
