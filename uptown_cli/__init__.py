"""uptown: records and analysis of the tile game Uptown (Blockers!)."""

__version__ = "0.1.0"
