"""Floorman's tests. A package, so that every module imports the shared harness by one
name (``tests.support``) and no two ``conftest`` modules share a name."""
