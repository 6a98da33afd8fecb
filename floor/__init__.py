"""Floorman: the domain of the live table floor. Nothing here imports flask except floor.web."""
