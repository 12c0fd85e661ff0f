"""Bots and what they may know, the review of a game, self-play and figures over many records.
"""

__all__: list[str] = []
