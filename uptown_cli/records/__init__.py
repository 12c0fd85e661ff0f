"""Game records, the file format: YAML read and written safely, the schema, and the text of a
record edited without touching the rest of the file. Nothing here hashes or checks fair play
(``fairplay``) or decides a turn (``turns``).

- ``yaml_reader``: PyYAML's events read into ``nodes`` with lines and limits, one reading
  whether libyaml is there or not (``yaml_parsers``).
- ``nodes``: the parsed tree, each node with its line and offsets.
- ``yaml_writer``: text written as YAML scalars that read back as the same text.
- ``reading``: a file or standard input, never a device, at most 1 MiB.
- ``schema``: ``Record``, the format checked, made of the ``entries`` (players, moves, pauses,
  notes).
- ``entries``: a player, a move, a pause and a move's notes as a record writes them.
- ``names``: what names, the event and e-mail addresses may hold, and names that look alike.
- ``confusables``: Unicode's confusable characters of Latin, Greek and Cyrillic (a table
  ``scripts/confusables.py`` makes from Unicode's data).
- ``lineup``: the players at one table, and the colours dealt them.
- ``hidden_fields``: the hidden-racks fields (game id, protocol, commitments, withdrawn and
  revealed keys, links) as written.
- ``times``: the clock's keys, the times under the entries, pauses, timelines and deadlines.
- ``disputes``: a player's claim that an entry another wrote for them, out of time, is wrong.
- ``annotations``: ``eval``, ``best``, ``variations`` and ``comment`` under a move.
- ``replay``: a record's moves played through the engine, with a check given by the caller.
- ``editing``: a new record, and one entry added, written over or taken out.
- ``file_lock`` and ``safe_file``: a game file locked, replaced whole or not at all; every other
  file written the same way.
"""

__all__: list[str] = []
