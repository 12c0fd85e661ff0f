"""What a player does to a game file, one way for every kind of turn: open the file, check it
against what the player saw, replay it, act, append the entry, remember, report. The command
line and a program call the same functions; errors are the library's (``errors``).

- ``validation``: a record checked from end to end (``validate_file``), as ``uptown validate``
  checks it.
"""

__all__: list[str] = []
