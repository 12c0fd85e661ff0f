"""What a player does to a game file, one way for every kind of turn: open the file, check it
against what the player saw, replay it, act, append the entry, remember, report. The command
line and a program call the same functions; errors are the library's (``errors``).

- ``game_files``: a game file opened (read, checked against what the player saw and the
  clock, replayed), and what the player saw kept.
- ``own_turn``: the player to move, their own view of a game with hidden racks, a bot's move
  for them, and their move played with the link they write.
- ``acts``: every kind of turn written into the file: a move, a resignation, a stand-in, a
  vacation, a join, a join undone, a key revealed.
- ``bot_games``: games against the computer: which seats bots play, a new game against them,
  a takeback.
- ``validation``: a record checked from end to end (``validate_file``), as ``uptown validate``
  checks it.
"""

__all__: list[str] = []
