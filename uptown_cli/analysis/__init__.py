"""Bots and what they may know, the review of a game, self-play, figures over many records,
and outside programs that play over a protocol.

- ``bots``: ``random``, ``greedy``, ``mc``, ``horizon`` and ``vista``; ``features``: the
  figures of a colour's position, and ``value``: vista's weights for them, shipped, and their
  fit.
- ``deals``: what a player cannot see, dealt to fit what they know.
- ``stand_ins``: a bot's move for a late player, and its check.
- ``review``: the evaluation of every move, its chances through ``calibration``;
  ``annotate``: a review written under the moves;
  ``reasons``: why a marked move was worse, in words.
- ``selfplay``: bots playing one another; ``corpus``: figures over many records.
- ``pool``: the worker processes of ``--jobs``; ``cluster``: tasks on Dask.
- ``bot_protocol``: the messages of the engine protocol; ``bot_server``: uptown's bots served
  over it; ``bot_programs``: an outside program run by the host.
- ``match``: one tournament game; ``tournament``: who plays whom, resumable; ``rating``: Elo,
  LOS, pairings and openskill; ``sprt``: fishtest's GSPRT on deal scores.
"""

__all__: list[str] = []
