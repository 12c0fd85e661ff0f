"""Fair play: the protocol that lets players who do not trust each other play by email, racks
hidden, with no server, and every check of it. It reads records (``records``) and is used by
the use-case layer (``turns``) and what shows games (``pictures``).

- ``draws``: the hash chains, commitments, history digests and seals, and the draws they fix
  (``HiddenDeal``); the protocol's versions.
- ``keys``: a player's key files, private and kept outside the record.
- ``joins``: the keys in the joins and reveals checked (which revealed key counts, what a
  withdrawn join proves).
- ``check``: every move of a hidden game checked against the commitments and the keys known
  (``HiddenCheck``), and what stays unchecked.
- ``signatures``: protocol 5's signatures: every entry signed by its writer over the history
  before it, checked when a copy is read.
- ``replay``: a record's moves replayed with every check of fair play.
- ``memory``: what a player has seen of a game, kept beside their keys, and the first change.
- ``viewer``: who looks at a game: the player ``--as`` names, their key, their own view.
- ``copies``: how two copies of a game relate, and copies merged by their revealed keys.
"""

__all__: list[str] = []
