"""Floorman controller: the tournament engine, its event log and the director's tools."""
