"""The game at the terminal, over one ``session`` that plays every turn through ``turns``.

- ``session``: a game file as this terminal plays it: who plays by hand, which bots answer,
  each turn, a hint, a takeback.
- ``plain``: the game and its review as lines, for screen readers, pipes and scripts.
- ``studied``: a game to review: its annotations read, or reviewed here.
- ``board``: the board's squares and rack tiles to click (Textual).
- ``app``: ``uptown play``, the full-screen board (Textual).
- ``review``: ``uptown review``, stepping through a game with its evaluation (Textual).
"""

__all__: list[str] = []
