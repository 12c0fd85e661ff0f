"""The rules of Uptown (the engine): no I/O, nothing here reads a file, a terminal or YAML.

- ``geometry``: squares, tiles and regions as bit masks, and their names.
- ``notation``: moves (``Placement``, the ``Pass``) and the board as written; the forfeit's word.
- ``bags``: seeded bags.
- ``players``: a player (``Player``): a name and the colours it plays.
- ``game``: the colours dealt, and the game (``Game``): its moves checked and played, taken
  back, re-dealt.
- ``move_lists``: where the legal moves of a position are read from, shared by every game.
- ``passes``: forced passes, and what a pass with hidden racks is checked against.
- ``groups``: groups and cut points of a colour.
- ``scoring``: standings under both variants, forfeits last.
- ``playout``: fast random playouts for the bots.
- ``moments``: times in UTC, durations, now, and the checks on a record's times.
- ``clock``: the clock notation, deadlines, banks, the reveal window.
- ``late``: the late policy and vacations.
- ``words``: ``Word``, the enum of fixed words that name a state.
- ``sha256``: SHA-256 without loading OpenSSL.
"""

__all__: list[str] = []
