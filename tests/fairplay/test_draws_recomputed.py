"""Whole games with hidden racks, written or checked by a second implementation of the protocol
made from docs/HIDDEN_DRAWS.md alone, with its own hashes (the engine only says which
placements the rules allow). Versions 3 and 4: games written here (chains, commitments, seals,
draws, and in version 4 the times and pauses under the seals), checked by the tool through the
command line: every draw, rack, pass, link and seal must agree. Version 5: a game the tool
played, checked here (every signature, with ``cryptography``'s Ed25519, commitment, link and
draw), and edits that both must refuse. Each test here fails when one of the checks of
``fairplay.draws`` is broken (the draw number off by one, a revealed player's rack not
checked, the tiles never drawn dealt in another order, a pass judged unforced or forced at the
wrong count, a link equal to the one before it accepted)."""

import hashlib
import random
from datetime import datetime, timedelta

import pytest

from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.geometry import FIT_SQUARES, parse_square, parse_tile, square_name, tile_name
from uptown_cli.engine.notation import PASS, Placement, parse_move
from uptown_cli.errors import IllegalMove

TILES = 28
RACK = 5
FIVE = (("Ana", ("red",), "ana@example.org"), ("Bo", ("blue",), None),
        ("Cy", ("green",), "cy@example.org"), ("Di", ("yellow",), "di@example.org"),
        ("Ed", ("orange",), None))
TWO = (("Ana", ("red", "green"), "ana@example.org"), ("Bo", ("blue", "yellow"), None))
SEED = 7
TIMING = (("clock", "move 72h grace 168h"), ("late", "wait"), ("vacation", "14d"),
          ("started", "2026-12-01T00:00:00Z"))
"""The time control of the version 4 games written here."""


def framed(*fields):
    """H(f1, ..., fn): SHA-256 over each field preceded by its length, 4 bytes big-endian."""
    return hashlib.sha256(b"".join(len(f).to_bytes(4, "big") + f for f in fields)).digest()


def tag(what, version=3):
    return f"uptown-hidden-{version} {what}".encode()


def minutes_after_start(number):
    """The ``at`` of move ``number`` in the version 4 games written here: a minute apart."""
    start = datetime.fromisoformat(TIMING[-1][1].replace("Z", "+00:00"))
    return (start + timedelta(minutes=number)).strftime("%Y-%m-%dT%H:%M:%SZ")


class Seated:
    """The players of a game (``seats``: (name, colours, address) in turn order) with keys,
    chains and commitments made from ``rng``, and the record of ``moves`` ((colour, Move,
    chain link)) as the docs write it, in protocol ``version`` (3, or 4 with ``TIMING`` and a
    time under each move)."""

    def __init__(self, rng, seats, version=3):
        self.version = version
        self.seats = seats
        self.names = [name for name, _, _ in seats]
        self.owner = {c: seat for seat, (_, colours, _) in enumerate(seats) for c in colours}
        self.game_id = rng.randbytes(16)
        self.keys = [rng.randbytes(32) for _ in seats]
        self.chains, self.commitments = [], []
        for name, key in zip(self.names, self.keys):
            links = [framed(self.tag("chain"), self.game_id, name.encode(), key)]
            for _ in range(256):
                links.append(hashlib.sha256(links[-1]).digest())
            self.chains.append(links)
            self.commitments.append(framed(self.tag("commit"), self.game_id, name.encode(),
                                           links[256], *self.commitments))
        self.moves = []  # (colour, Move, chain link, the racks before it or None)
        self.turns = [0] * len(seats)

    def tag(self, what):
        return tag(what, self.version)

    def new_game(self):
        return Game([Player(name, colours) for name, colours, _ in self.seats])

    def add(self, colour, move, racks=None):
        """Move ``move`` of ``colour`` joins the record with its player's next chain link;
        returns the link."""
        seat = self.owner[colour]
        self.turns[seat] += 1
        link = self.chains[seat][256 - self.turns[seat]]
        self.moves.append((colour, move, link, racks))
        return link

    def text(self, moves=None, revealed=True, times=None, kept=None, pauses=None):
        """The record: ``moves`` as (colour, move text, chain link) (default: those played),
        each with its seal (``kept``: the seals of some moves, by index, as made before a
        change); every key revealed, or none. Version 4: ``times`` the ``at`` of each move
        (default: ``minutes_after_start``); ``pauses``: (colour, days, at, from or None) by
        the number of moves before them, in the history before the next move."""
        moves = self.played() if moves is None else moves
        if times is None:
            times = [minutes_after_start(n) for n in range(1, len(moves) + 1)]
        lines = ["uptown: 1", "variant: standard", "players:"]
        fields = [b"standard"]
        for name, colours, address in self.seats:
            lines += [f"  - name: {name}", f"    colors: [{', '.join(colours)}]"]
            lines += [f"    email: {address}"] if address else []
            fields += [name.encode(), " ".join(colours).encode(), (address or "").encode()]
        lines += [f"hidden: {self.game_id.hex()}", f"protocol: uptown-hidden-{self.version}",
                  "commitments:"]
        lines += [f"  - {n}: {c.hex()}" for n, c in zip(self.names, self.commitments)]
        fields += self.commitments
        if self.version > 3:
            lines += [f'{key}: "{value}"' for key, value in TIMING]
            fields += [value.encode() for _, value in TIMING]
        digest = framed(self.tag("history"), self.game_id, *fields)
        lines.append("moves:")
        seal = b""
        for index, ((colour, text, link), at) in enumerate(zip(moves, times)):
            for pause in (pauses or {}).get(index, []):
                digest, written = self.paused(digest, seal, *pause)
                lines += written
            stamp = [b"at", at.encode()] if self.version > 3 else []
            digest = framed(self.tag("history"), digest, seal, link, colour.encode(),
                            text.encode(), *stamp)
            chain = self.chains[self.owner[colour]]
            seal = (kept or {}).get(index) or framed(self.tag("seal"), self.game_id,
                                                     chain[chain.index(link) - 1], digest)
            lines += [f"  - {colour}: {text}"] + ([f'    at: "{at}"'] if stamp else [])
            lines.append(f"    link: {link.hex()}{seal.hex()}")
        if revealed:
            lines.append("revealed:")
            lines += [f"  - {n}: {k.hex()}" for n, k in zip(self.names, self.keys)]
        return "\n".join(lines) + "\n"

    def paused(self, digest, seal, colour, days, at, start):
        """A pause: the history after it (version 4: as an entry with an empty link, its
        ``at`` then its ``from``, under the last seal before it), and its lines."""
        stamp = [b"at", at.encode()] + ([b"from", start.encode()] if start else [])
        if self.version > 3:
            digest = framed(self.tag("history"), digest, seal, b"", colour.encode(),
                            f"pause {days}d".encode(), *stamp)
        return digest, ([f"  - {colour}: pause {days}d", f'    at: "{at}"']
                        + ([f'    from: "{start}"'] if start else []))

    def played(self):
        """The moves as ``text`` takes them."""
        return [(c, str(m), link) for c, m, link, _ in self.moves]


class Written(Seated):
    """A game the second implementation plays to its end, drawing every tile as the docs
    say (each player's move chosen by ``choose`` among the placements their racks allow):
    every move with the racks before it, every draw."""

    def __init__(self, seed, seats=FIVE, choose=random.Random.choice, version=3):
        rng = random.Random(seed)
        super().__init__(rng, seats, version)
        self.bags = {c: list(range(TILES)) for c in self.owner}
        self.drawn = {c: [] for c in self.owner}
        self.racks = {c: [] for c in self.owner}
        self.waiting = []  # [seat, colours, values so far]
        for seat, (_, colours, _) in enumerate(seats):
            self.publish(seat, self.commitments[seat])
            self.waiting.append([seat, [c for c in colours for _ in range(RACK)], []])
        game = self.new_game()
        while not game.finished:
            seat = self.names.index(game.to_move.name)
            colours = seats[seat][1]
            options = [(c, Placement(t, sq)) for c in colours if game.playable(c)
                       for t in sorted(self.racks[c]) for sq in FIT_SQUARES[t]
                       if allowed(game, c, Placement(t, sq))]
            colour, move = choose(rng, options) if options else (colours[0], PASS)
            move = game.play(move, colour).move
            link = self.add(colour, move, {c: list(r) for c, r in self.racks.items()})
            self.publish(seat, link)
            if not move.is_pass:
                self.racks[colour].remove(move.tile)
                if len(self.drawn[colour]) < TILES:
                    self.waiting.append([seat, [colour], []])
        self.game = game

    def publish(self, seat, value):
        """The draws waiting for the next value of every other seat take this one; those
        that have them all are made."""
        others = len(self.seats) - 1
        for waiting in self.waiting:
            if waiting[0] != seat:
                waiting[2].append(value)
        for owner, colours, values in [w for w in self.waiting if len(w[2]) == others]:
            for colour in colours:
                number = len(self.drawn[colour])
                digest = framed(self.tag("draw"), self.game_id, colour.encode(),
                                number.to_bytes(4, "big"), self.keys[owner], *values)
                tile = self.bags[colour].pop(int.from_bytes(digest, "big") % (TILES - number))
                self.drawn[colour].append(tile)
                self.racks[colour].append(tile)
        self.waiting = [w for w in self.waiting if len(w[2]) < others]

    def dealt(self, number):
        """Each colour's rack (tile names, sorted) after the first ``number`` moves, its
        draws in order, then the tiles never drawn, in tile order."""
        racks = {}
        for colour in self.owner:
            order = self.drawn[colour] + sorted(set(range(TILES)) - set(self.drawn[colour]))
            placed = [m.tile for c, m, _, _ in self.moves[:number] if c == colour and not m.is_pass]
            held = [t for t in order[:min(TILES, RACK + len(placed))] if t not in placed]
            racks[colour] = sorted(tile_name(t) for t in held)
        return racks


LAYOUT = {
    "red": "1 B1, 2 A2, 3 A3, 4 B4, 5 A5, 6 A6, 7 B7, 8 A8, 9 A9, $ B5, woman C9",
    "green": "1 C1, 2 C2, 3 B3, 4 C4, 5 C5, 6 B6, 7 C7, 8 C8, 9 B9, man A1, B B2, C C3, $ C6, "
             "A A7, woman B8",
}
"""Rows A to C filled with Ana's tiles (the two-player game ``crowded``), but A4."""


class Crowded(Seated):
    """A two-player game (``TWO``) scripted so that Ana's tiles fill rows A to C: red then
    holds five tiles left, A, B, C and man (which fit only there) and one more: ``ring`` (it
    fits only there too, so all five fit nowhere) or ``sign`` (which fits in rows D to F: four
    fit nowhere). Green has played all its tiles. Bo places his tiles away from Ana's rows,
    or alone among them (Ana takes them back). The keys are never revealed: only the file is
    checked, so the tiles need not be those the keys draw. Ana passes at the end."""

    def __init__(self, left):
        rng = random.Random(left)
        super().__init__(rng, TWO)
        red_a4 = left == "sign"
        top = [(c, *item.split()) for c, items in LAYOUT.items() for item in items.split(", ")]
        top.append(("red" if red_a4 else "green", "ring", "A4"))
        below = [("red", t) for t in "D E F G H I skyline sax car cards champagne".split()]
        below += [("green", t) for t in "D E F G H I sign skyline".split()]
        below.append(("green", "sax") if red_a4 else ("red", "sign"))
        game = self.new_game()
        plan = [(c, parse_tile(t), None) for c, t in below]
        plan += [(c, parse_tile(t), parse_square(sq)) for c, t, sq in top]
        while plan or game.to_move.name == "Bo":
            colour, move = self.ana(game, plan) if game.to_move.name == "Ana" else self.bo(game)
            self.add(colour, game.play(move, colour).move)
        self.add("red", game.play(PASS, "red").move)
        self.game = game

    @staticmethod
    def ana(game, plan):
        """Ana's next placement of ``plan`` that the board allows now (taken off the plan)."""
        for index, (colour, tile, square) in enumerate(plan):
            squares = FIT_SQUARES[tile] if square is None else (square,)
            moves = [Placement(tile, sq) for sq in squares if allowed(game, colour, Placement(tile, sq))]
            moves.sort(key=lambda m: game.at(m.square) is not None)
            if moves:
                del plan[index]
                return colour, moves[0]
        raise AssertionError("Ana cannot play her plan")

    @staticmethod
    def bo(game):
        """Bo's placement: on an empty square of rows D to I, else alone on an empty square of
        rows A to C (so that Ana can take it back), else taking one of Ana's tiles in rows D to
        I; tiles that fit in fewer squares first."""
        own = {sq for sq, (c, _) in game.board.items() if c in ("blue", "yellow")}
        options = []
        for colour in ("blue", "yellow"):
            for tile in game.unplayed_tiles(colour) if game.playable(colour) else ():
                for sq in FIT_SQUARES[tile]:
                    low, empty = sq >= 27, game.at(sq) is None
                    alone = not any(n in own for n in neighbours(sq))
                    if (low or alone and empty) and allowed(game, colour, Placement(tile, sq)):
                        options.append((not empty, not low, len(FIT_SQUARES[tile]), sq, colour,
                                        tile))
        assert options, "Bo has no placement away from Ana's rows"
        *_, sq, colour, tile = min(options)
        return colour, Placement(tile, sq)


def neighbours(sq):
    row, column = divmod(sq, 9)
    return [r * 9 + c for r, c in ((row - 1, column), (row + 1, column), (row, column - 1),
                                   (row, column + 1)) if 0 <= r < 9 and 0 <= c < 9]


def allowed(game, colour, move):
    try:
        game.check(move, colour)
        return True
    except IllegalMove:
        return False


@pytest.fixture(scope="module")
def written():
    """A five-player game played to its end."""
    return Written(SEED)


def write(tmp_path, text, name="g.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def line_of(text, entry):
    return text.splitlines().index(entry) + 1


def test_the_tool_checks_every_draw_of_a_game_written_from_the_docs(uptown, tmp_path, written):
    """Every key revealed, every tile played on its rack as the docs draw it: valid."""
    result = uptown.invoke("validate", write(tmp_path, written.text()))
    assert result.exit_code == 0, result.output
    assert written.game.finished


def test_the_racks_shown_are_those_the_docs_deal(uptown, tmp_path, written):
    """At positions of the revealed game, every colour's rack is what the docs' draws give
    (a tile is shown on the rack from the move that draws it, though it is drawn when the
    values it waits for are published); at the end, a draw still to come is dealt the first
    tile never drawn, in tile order."""
    path = write(tmp_path, written.text())
    for number in list(range(0, len(written.moves), 7)) + [len(written.moves)]:
        shown = uptown.json("show", path, "--json", "--at", number)[1]["racks"]
        assert {c: sorted(r) for c, r in shown.items()} == written.dealt(number), number


def test_a_pass_at_the_limit_is_not_called_unforced_before_the_keys_are_known(uptown, tmp_path):
    """Ana passes when red holds five tiles and all five fit nowhere: the file alone cannot
    disprove it (her rack, unknown, may be those five): nothing is invalid."""
    crowded = Crowded("ring")
    result = uptown.invoke("validate", write(tmp_path, crowded.text(revealed=False)))
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("1 record, 1 valid, 0 invalid\n")


def test_a_pass_one_tile_short_of_forced_is_refused_before_the_keys_are_known(uptown, tmp_path):
    """Ana passes when red holds five tiles and only four of them fit nowhere: one of the
    five she holds fits somewhere, so the file alone shows that the pass, written by hand
    with the right link and seal, was not forced."""
    crowded = Crowded("sign")
    text = crowded.text(revealed=False)
    result = uptown.invoke("validate", write(tmp_path, text))
    assert result.exit_code == 1, result.output
    line = len(text.splitlines()) - 1
    assert result.stdout.startswith(
        f"{tmp_path / 'g.yaml'}:{line}: move {len(crowded.moves)}: Ana's pass cannot be forced: "
        "red holds 5 tiles and only 4 of its tiles left fit nowhere; Ana's entry was written by "
        "hand\n"), result.stdout


def test_a_tile_not_on_a_revealed_rack_is_reported_at_its_move(uptown, tmp_path, written):
    """A move rewritten with another tile of that colour, one it never drew by then, on the
    same square, every later seal made again (the keys are public): the rest of the game
    still follows the rules, and validate names the tile and the rack."""
    played, number, moves = written.moves, None, None
    for number, (colour, move, link, racks) in enumerate(played, 1):
        if move.is_pass:
            continue
        used = {m.tile for c, m, _, _ in played if c == colour and not m.is_pass}
        for tile in sorted(set(range(TILES)) - used - set(racks[colour])):
            other = Placement(tile, move.square)
            moves = [(c, m if n != number else other) for n, (c, m, _, _) in
                     enumerate(played, 1)]
            if replays(written.new_game(), moves):
                break
            moves = None
        if moves is not None:
            break
    assert moves is not None, "no move could be rewritten"
    game = written.new_game()
    texts = [(c, str(game.play(m, c).move), link) for (c, m), (_, _, link, _) in zip(moves, played)]
    text = written.text(texts)
    colour, changed = texts[number - 1][:2]
    result = uptown.invoke("validate", write(tmp_path, text))
    assert result.exit_code == 1
    line = line_of(text, f"  - {colour}: {changed}")
    assert result.stdout.startswith(f"{tmp_path / 'g.yaml'}:{line}: move {number}: {colour} has "
                                    f"no {changed.split()[0]} on its rack ("), result.stdout


def replays(game, moves):
    """Whether the moves ((colour, Move)) follow the rules on ``game``, racks aside."""
    for colour, move in moves:
        if not allowed(game, colour, move):
            return False
        game.play(move, colour)
    return True


def test_a_link_written_twice_is_refused(uptown, tmp_path, written):
    """A player's second link written equal to their first (every seal made again): it is
    not the link below the first, and validate says so at that move."""
    texts = written.played()
    seats = len(written.seats)
    colour, text, _ = texts[seats]  # Ana's second move, its link her first one again
    assert colour == "red"
    texts[seats] = (colour, text, texts[0][2])
    result = uptown.invoke("validate", write(tmp_path, written.text(texts)))
    assert result.exit_code == 1
    assert f"move {seats + 1}: the link is not the one below Ana's previous link" \
        in result.stdout


def test_the_bags_dealt_from_draws_hold_the_rest_in_tile_order():
    from uptown_cli.fairplay.draws import bags_from_draws

    assert bags_from_draws({"red": [27, 3]}, ["red"]) == {"red": [27, 3] + [0, 1, 2] + list(
        range(4, 27))}


def example_chains(version):
    """The example values' game id, keys (each the SHA-256 of its player's name), chains (each
    player's 257 links) and commitments of Ana, Bo and Cy (docs/HIDDEN_DRAWS.md)."""
    game_id = bytes.fromhex("00112233445566778899aabbccddeeff")
    keys = {name: hashlib.sha256(name.encode()).digest() for name, _, _ in FIVE[:3]}
    made, chains = [], {}
    for name, key in keys.items():
        links = [framed(tag("chain", version), game_id, name.encode(), key)]
        for _ in range(256):
            links.append(hashlib.sha256(links[-1]).digest())
        chains[name] = links
        made.append(framed(tag("commit", version), game_id, name.encode(), links[256], *made))
    assert [c.hex() for c in made] == PINNED_COMMITMENTS[version]
    return game_id, keys, chains, made


#: The example commitments of Ana, Bo and Cy, by version (docs/HIDDEN_DRAWS.md).
PINNED_COMMITMENTS = {
    3: ["a93a3d859753a363c08a655fd8bc600fd7865cf80590904cb0ce1eba5c53b2ab",
        "fb5c5531ad8436a7e655e08e178e42edc73a1dc8c060104fe4395ca484c0141c",
        "a44dc3f4577ff41dd99379ee6e60f0bb43c6c6751276e4d937ad4d0fbeb7aa2f"],
    4: ["c682c8d5058332de5d87127ab607df6c1cd0c8c816ec88e4cc9c72e4b61a645f",
        "cc955bb5516c69c4db5d0fe8e3e27b72ff5af24717e8e72fc795ba16348b519e",
        "919494659448cbb05a9604fc5ede4cce86e36144bd363f2c799436a3ea07d49f"],
}


def example_draws(version, game_id, keys):
    """(the example's two values, the first six draws of Ana's red from them)."""
    values = (bytes(range(32)), bytes(range(32, 64)))
    return values, [int.from_bytes(framed(tag("draw", version), game_id, b"red",
                                          n.to_bytes(4, "big"), keys["Ana"], *values), "big")
                    % (28 - n) for n in range(6)]


def library_commitments(version, game_id, keys, made):
    """The commitments the library makes from the example's keys."""
    from uptown_cli.fairplay import draws

    return [draws.commitment(game_id, n, draws.head(game_id, n, keys[n], version), made[:i],
                             version) for i, n in enumerate(keys)]


def example_start(version, game_id, made, *more):
    """The example's history before move 1: the variant, each seat's name, colours and
    address, the commitments, and (version 4) the clock keys ``more``."""
    return framed(tag("history", version), game_id, b"standard", b"Ana", b"red",
                  b"ana@example.org", b"Bo", b"blue", b"", b"Cy", b"green", b"cy@example.org",
                  *made, *more)


def test_the_version_3_example_values_are_pinned():
    """docs/HIDDEN_DRAWS.md, "Version 3 example values": recomputed here. Never change them:
    other values mean that every game of version 3 replays differently."""
    seats = FIVE[:3]
    game_id, keys, chains, made = example_chains(3)
    start = example_start(3, game_id, made)
    assert start.hex() == "b2f696866843305522754c666b4241becb429dd1214dbe464d602cb40dd5f7af"
    after = framed(tag("history"), start, b"", chains["Ana"][255], b"red", b"7 B7")
    assert after.hex() == "dc7b95cd80c9b40fceb9c04c0f71b167f76c0465467eeaf24405e73a63310fb8"
    sealed = framed(tag("seal"), game_id, chains["Ana"][254], after)  # her next link
    assert sealed.hex() == "8307dd698db637a3daa65e0bef9997ed3865c2e1cf95240fc7be6822b30de3da"
    second = framed(tag("history"), after, sealed, chains["Bo"][255], b"blue", b"sax E8")
    assert second.hex() == "e891d9a82ff095e7a264ccaa0809f7a910cf4d06b14fd811153da88378f9a397"
    assert framed(tag("seal"), game_id, chains["Bo"][254], second).hex() == (
        "d295c763fd0e25021e32e192d4a15733dd6a3490ae9b3c7f0a6d0e5ff0ee1722")
    with_time = framed(tag("history"), start, b"", chains["Ana"][255], b"red", b"7 B7", b"at",
                       b"2026-01-02T03:04:05Z")  # a field a later format adds: covered too
    values, drawn = example_draws(3, game_id, keys)
    assert drawn == [0, 9, 6, 21, 1, 20]
    from uptown_cli.fairplay import draws

    players = [Player(n, c) for n, c, _ in seats]
    assert library_commitments(3, game_id, keys, made) == made
    assert draws.history_start(game_id, "standard", players, made, 3,
                               [address for _, _, address in seats]) == start
    assert [draws.draw_index(game_id, "red", n, keys["Ana"], values, 28 - n, 3)
            for n in range(6)] == [0, 9, 6, 21, 1, 20]
    assert draws.history_step(start, "red", "7 B7", chains["Ana"][255], 3) == after
    assert draws.history_step(start, "red", "7 B7", chains["Ana"][255], 3,
                              more=[("at", "2026-01-02T03:04:05Z")]) == with_time
    assert draws.seal_secret(game_id, "Ana", keys["Ana"], 1, 3) == chains["Ana"][254]
    assert draws.seal(game_id, chains["Ana"][254], after, 3) == sealed
    assert draws.history_step(after, "blue", "sax E8", chains["Bo"][255], 3, sealed) == second


def forged_text(written, number, sealed_before):
    """The written game with move ``number`` moved to another square its tile may take (one no
    later move takes), its link and seal kept, and the seals of moves ``number`` to
    ``sealed_before - 1`` kept as made over the true history (their movers sealed it before
    the change); every later seal made over the changed history (as a forger who plays on,
    and the players after him, would make them). Returns (text, changed move's line)."""
    played = written.played()
    colour, text, link = played[number - 1]
    tile, square = text.split()
    later = {t.split()[-1].lstrip("x") for _, t, _ in played if t != "pass"}
    game = written.new_game()
    for c, t, _ in played[:number - 1]:
        game.play(parse_move(t), c)
    moved = next(f"{tile} {square_name(sq)}" for sq in FIT_SQUARES[parse_tile(tile)]
                 if square_name(sq) not in later and allowed(game, colour,
                                                             Placement(parse_tile(tile), sq)))
    changed = list(played)
    changed[number - 1] = (colour, moved, link)
    true_seals = [line.split()[-1][64:] for line in written.text().splitlines()
                  if line.startswith("    link: ")]
    lines = written.text().splitlines()
    start = lines.index("moves:")
    digest = framed(tag("history"), written.game_id, b"standard", *[
        f for name, colours, address in written.seats
        for f in (name.encode(), " ".join(colours).encode(), (address or "").encode())],
        *written.commitments)
    seal = b""
    for index, (c, t, lk) in enumerate(changed):
        digest = framed(tag("history"), digest, seal, lk, c.encode(), t.encode())
        if number - 1 <= index < sealed_before - 1:
            seal = bytes.fromhex(true_seals[index])
        else:
            chain = written.chains[written.owner[c]]
            seal = framed(tag("seal"), written.game_id, chain[chain.index(lk) - 1], digest)
        lines[start + 1 + 2 * index] = f"  - {c}: {t}"
        lines[start + 2 + 2 * index] = f"    link: {lk.hex()}{seal.hex()}"
    return "\n".join(lines) + "\n", start + 2 + 2 * (number - 1)


@pytest.mark.parametrize("sealed_before, named", [(2, "Bo changed it"), (3, "Bo or Cy changed it")])
def test_a_changed_move_names_the_first_player_whose_seal_covers_the_change(
        uptown, tmp_path, written, sealed_before, named):
    """Ana's move 1 moved to another square after she sealed it. When Bo (move 2) is the first
    to seal the changed history, validate names him; when Bo sealed the true history and Cy
    (move 3) is the first over the change, it names both (Bo's seal, which does not cover the
    change, could be a false one); the victim, Ana, never."""
    text, line = forged_text(written, 1, sealed_before)
    result = uptown.invoke("validate", write(tmp_path, text))
    assert result.exit_code == 1, result.output
    said = result.stdout.splitlines()[0]
    assert said.startswith(f"{tmp_path / 'g.yaml'}:{line}: move 1 (Ana's red), or an entry "
                           "before it, was changed after Ana played it: Ana's seal does not "
                           "cover it; "), said
    assert said.endswith(f": {named}"), said


def test_a_changed_move_whose_seals_are_not_yet_checkable_is_a_warning(uptown, tmp_path,
                                                                       written):
    """The same change, no key revealed: Ana's next link shows that her seal does not cover
    it, Bo's seal is checked only at his next turn; every later seal covers the change, so
    once Bo's next link is read he is named (an error, at the changed move)."""
    text, line = forged_text(written, 1, 2)
    hidden = text[:text.index("revealed:")]
    result = uptown.invoke("validate", write(tmp_path, hidden))
    assert result.exit_code == 1, result.output  # Bo moved again: his link names him
    assert f"g.yaml:{line}: move 1 (Ana's red)" in result.stdout
    assert result.stdout.splitlines()[0].endswith(": Bo changed it")
    seats = len(written.seats)
    lines = hidden.splitlines()
    start = lines.index("moves:")
    cut = "\n".join(lines[:start + 1 + 2 * (seats + 1)]) + "\n"  # Ana's second move: not Bo's
    result = uptown.invoke("validate", write(tmp_path, cut, "cut.yaml"))
    assert result.exit_code == 0, result.output
    assert (f"cut.yaml:{line}: warning: move 1 (Ana's red), or an entry before it, was changed "
            "after Ana played it: Ana's seal does not cover it; who changed it is named when Bo "
            "plays next (Bo's seal of move 2 is the next over the change)") in result.stdout


@pytest.fixture(scope="module")
def written_4():
    """A five-player game of version 4 played to its end."""
    return Written(SEED, version=4)


AFTER_THE_GAME = {"UPTOWN_NOW": "2026-12-02T00:00:00Z"}


def test_the_tool_checks_every_draw_and_time_of_a_version_4_game_written_from_the_docs(
        uptown, tmp_path, written_4):
    """Version 4: the clock and every move's time under the seals, every key revealed:
    valid, and the racks shown are those the docs deal."""
    path = write(tmp_path, written_4.text())
    assert "protocol: uptown-hidden-4\n" in path.read_text()
    result = uptown.invoke("validate", path, env=AFTER_THE_GAME)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stdout
    number = len(written_4.moves) // 2
    shown = uptown.json("show", path, "--json", "--at", number, env=AFTER_THE_GAME)[1]["racks"]
    assert {c: sorted(r) for c, r in shown.items()} == written_4.dealt(number)


@pytest.mark.parametrize("sealed_by_bo", [False, True])
def test_a_time_changed_in_a_version_4_game_breaks_its_movers_seal(uptown, tmp_path, written_4,
                                                                   sealed_by_bo):
    """Ana's first move dated a minute earlier after she sealed it. Every later seal as made
    over the true history: nobody sealed the change, made after the last move. Bo's and every
    later seal made over the changed time: Bo sealed it first, and is named."""
    true = written_4.text()
    line = true.splitlines().index("moves:") + 2  # Ana's move (then her at and link)
    times = [minutes_after_start(n) for n in range(1, len(written_4.moves) + 1)]
    times[0] = "2026-12-01T00:00:30Z"
    if sealed_by_bo:
        sealed = bytes.fromhex(true.splitlines()[line + 1][-64:])  # as Ana made it
        text = written_4.text(times=times, kept={0: sealed})
    else:
        text = true.replace(f'at: "{minutes_after_start(1)}"', f'at: "{times[0]}"')
    result = uptown.invoke("validate", write(tmp_path, text), env=AFTER_THE_GAME)
    assert result.exit_code == 1, result.output
    said = result.stdout.splitlines()[0]
    assert said.startswith(f"{tmp_path / 'g.yaml'}:{line}: move 1 (Ana's red), or an entry "
                           "before it, was changed after Ana played it: Ana's seal does not "
                           "cover it"), said
    assert said.endswith(": Bo changed it" if sealed_by_bo else
                         "the change was made after the last move was sealed, by whoever "
                         "held the file since"), said


PAUSES = {2: [("blue", 2, "2026-12-01T00:02:30Z", "2026-12-01T06:00:00Z")],
          4: [("orange", 1, "2026-12-01T00:04:30Z", None),
              ("yellow", 3, "2026-12-01T00:04:40Z", "2026-12-02T00:00:00Z")]}
"""Pauses in a version 4 game: Bo's after his move 2, then Ed's at his turn and Di's after
her move 4."""


def test_a_version_4_game_with_pauses_under_the_seals_validates(uptown, tmp_path, written_4):
    """Pauses by the last mover and by the player to move, in the history as the docs say:
    every seal covers them, and the game is valid."""
    text = written_4.text(pauses=PAUSES)
    assert "  - orange: pause 1d\n" in text
    result = uptown.invoke("validate", write(tmp_path, text), env=AFTER_THE_GAME)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stdout


@pytest.mark.parametrize("change", ["removed", "days", "from"])
def test_a_pause_changed_in_a_version_4_game_breaks_the_seal_over_it(uptown, tmp_path,
                                                                     written_4, change):
    """Bo's pause removed, or its days or start changed, after Cy's move 3 sealed it: Cy's
    seal does not cover it, and nobody sealed the change."""
    true = written_4.text(pauses=PAUSES)
    was = '  - blue: pause 2d\n    at: "2026-12-01T00:02:30Z"\n    from: "2026-12-01T06:00:00Z"\n'
    now = {"removed": "", "days": was.replace("2d", "1d"),
           "from": was.replace("T06:", "T07:")}[change]
    assert was in true
    result = uptown.invoke("validate", write(tmp_path, true.replace(was, now)),
                           env=AFTER_THE_GAME)
    assert result.exit_code == 1, result.output
    said = result.stdout.splitlines()[0]
    assert "move 3 (Cy's green), or an entry before it, was changed after Cy played it" in said
    assert said.endswith("the change was made after the last move was sealed, by whoever "
                         "held the file since"), said


def test_the_version_4_example_values_are_pinned():
    """docs/HIDDEN_DRAWS.md, "Version 4 example values": recomputed here. Never change them:
    other values mean that every game of version 4 replays differently."""
    seats = FIVE[:3]
    game_id, keys, chains, made = example_chains(4)
    timing = ["move 72h grace 168h", "pass", "none", "2026-12-01T15:36:00Z"]
    start = example_start(4, game_id, made, *[value.encode() for value in timing])
    assert start.hex() == "77a0dcb13b7594454c0158d6ac205a93c3a3c383b68aaf7c80cb194e7da18745"
    first = framed(tag("history", 4), start, b"", chains["Ana"][255], b"red", b"7 B7", b"at",
                   b"2026-12-01T18:02:11Z")
    assert first.hex() == "cbcb4c130a78bbd097be890647c9f66e43aa2548fe2af4462b0452b649d12e13"
    sealed = framed(tag("seal", 4), game_id, chains["Ana"][254], first)
    assert sealed.hex() == "c8b1b02a6e723859f23474f33e224c51a8b57363067fbec444f3b1776810ed57"
    passed = framed(tag("history", 4), first, sealed, b"", b"blue", b"pass", b"at",
                    b"2026-12-09T10:00:00Z", b"by", b"Cy")  # written by Cy for Bo: no link
    assert passed.hex() == "cea9bd1c0f4f85798d708db0e172019964880baedd84996917321d3895d900e4"
    third = framed(tag("history", 4), passed, sealed, chains["Cy"][255], b"green", b"man C3",
                   b"at", b"2026-12-09T10:05:00Z")
    assert third.hex() == "2a6671c668a398b2a70e921fd07cc2271bb627d96d20a97f67d14e5d5f955de4"
    assert framed(tag("seal", 4), game_id, chains["Cy"][254], third).hex() == (
        "a8185da9188016b2ed71485f94dca68a2f5f1d8b03cc740724a8e74cc9cfb380")
    paused = framed(tag("history", 4), passed, sealed, b"", b"green", b"pause 2d", b"at",
                    b"2026-12-09T10:02:00Z", b"from", b"2026-12-12T00:00:00Z")  # Cy's, no link
    assert paused.hex() == "4aab4cad96dcd45d90dffac996dabb1480eb317b677ce4e8e770ec858b8a256b"
    after_pause = framed(tag("history", 4), paused, sealed, chains["Cy"][255], b"green",
                         b"man C3", b"at", b"2026-12-09T10:05:00Z")
    assert after_pause.hex() == (
        "5c51573de76dd640e1fcf6643c0abfa945b48859e407d9bd4f379fbaae6f67be")
    assert framed(tag("seal", 4), game_id, chains["Cy"][254], after_pause).hex() == (
        "2bc83e8985ca0ee8d6de3591bd666466cd666f2cc778d9392e332944f0e16781")
    values, drawn = example_draws(4, game_id, keys)
    assert drawn == [11, 21, 5, 8, 7, 5]
    from uptown_cli.fairplay import draws

    players = [Player(n, c) for n, c, _ in seats]
    assert library_commitments(4, game_id, keys, made) == made
    assert draws.history_start(game_id, "standard", players, made, 4,
                               [address for _, _, address in seats], timing) == start
    assert draws.history_step(start, "red", "7 B7", chains["Ana"][255], 4,
                              more=[("at", "2026-12-01T18:02:11Z")]) == first
    assert draws.seal(game_id, chains["Ana"][254], first, 4) == sealed
    assert draws.history_step(first, "blue", "pass", b"", 4, sealed,
                              [("at", "2026-12-09T10:00:00Z"), ("by", "Cy")]) == passed
    assert draws.history_step(passed, "green", "man C3", chains["Cy"][255], 4, sealed,
                              [("at", "2026-12-09T10:05:00Z")]) == third
    from uptown_cli.records.entries import PauseEntry
    from uptown_cli.fairplay.check import sealed_pause

    pause = PauseEntry(2, "green", 2, "2026-12-09T10:02:00Z", "2026-12-12T00:00:00Z", 0)
    assert draws.history_step(passed, pause.color, pause.text, b"", 4, sealed,
                              sealed_pause(pause)) == paused
    assert [draws.draw_index(game_id, "red", n, keys["Ana"], values, 28 - n, 4)
            for n in range(6)] == [11, 21, 5, 8, 7, 5]


# -- version 5: a second checker of signed games, from the docs alone -----------------------


def ed25519_public(seed):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(
        Encoding.Raw, PublicFormat.Raw)


def ed25519_sign(seed, digest):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(seed).sign(tag("signature", 5) + digest)


def ed25519_verifies(public, signature, digest):
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, tag("signature", 5) + digest)
    except (InvalidSignature, ValueError):
        return False
    return True


ENTRY_KEYS = {"move": ("link", "at", "by", "bot"), "pause": ("at", "from")}
"""The keys under an entry that its digest covers, in the docs' order."""


def first_key(item):
    """The first key of an entry of a list (``- Ana: ...``, ``- red: 7 B7``) and its value."""
    key = next(iter(item))
    return key, item[key]


class SignedCheck:
    """A game of version 5 checked from docs/HIDDEN_DRAWS.md alone: the record read with
    PyYAML's BaseLoader (every value the text written, without the YAML's quotes), every
    signature, commitment (once its key is revealed), link and draw. ``problems`` lists what
    is wrong, in the order found."""

    def __init__(self, text):
        import yaml

        self.doc = yaml.load(text, Loader=yaml.BaseLoader)
        self.problems = []
        self.game_id = bytes.fromhex(self.doc.get("hidden") or self.doc["game"])
        self.players = [(p["name"], p["colors"], p.get("email", "")) for p in self.doc["players"]]
        self.owner = {c: name for name, colours, _ in self.players for c in colours}
        self.signing = {}
        self.check_signatures()
        revealed = {first_key(item)[0]: bytes.fromhex(first_key(item)[1])
                    for item in self.doc.get("revealed") or []}
        if self.doc.get("hidden") and len(revealed) == len(self.players):
            self.check_commitments(revealed)
            self.check_links_and_draws(revealed)

    def check_signatures(self):
        doc = self.doc
        fields = [doc["variant"].encode(), doc.get("seed", "").encode()]
        for name, colours, address in self.players:
            fields += [name.encode(), " ".join(colours).encode(), address.encode()]
        fields += [doc.get(key, "").encode() for key in ("clock", "late", "vacation", "started")]
        digest = framed(tag("header", 5), self.game_id, *fields)
        self.header = digest
        self.commitments = []
        for item in doc["commitments"]:
            name, value = first_key(item)
            key = bytes.fromhex(item["key"])
            self.signing[name] = key
            self.commitments.append((name, bytes.fromhex(value)))
            digest = framed(tag("join", 5), digest, name.encode(), bytes.fromhex(value), key)
            self.signed_by(name, item, digest, f"{name}'s join")
        for number, item in enumerate(doc.get("moves") or [], 1):
            colour, text = first_key(item)
            kind = "pause" if text.startswith("pause ") else "move"
            more = []
            for key in ENTRY_KEYS[kind]:
                if key in item:
                    value = bytes.fromhex(item[key]) if key == "link" else item[key].encode()
                    more += [key.encode(), value]
            digest = framed(tag("entry", 5), digest, colour.encode(), text.encode(), *more)
            self.signed_by(item.get("by", self.owner[colour]), item, digest, f"entry {number}")
        for item in doc.get("revealed") or []:
            name, key = first_key(item)
            self.signed_by(name, item, framed(tag("reveal", 5), digest, name.encode(),
                                              bytes.fromhex(key)), f"{name}'s revealed key")

    def signed_by(self, name, item, digest, what):
        if "sig" not in item or not ed25519_verifies(self.signing.get(name, b""),
                                                     bytes.fromhex(item["sig"]), digest):
            self.problems.append(f"{what} is not signed by {name}")

    def check_commitments(self, revealed):
        made = []
        for name, value in self.commitments:
            head = self.chain(name, revealed[name])[256]
            made.append(framed(tag("commit", 5), self.game_id, name.encode(), head,
                               self.signing[name], *made))
            if made[-1] != value:
                self.problems.append(f"{name}'s key does not give their commitment")

    def chain(self, name, key):
        links = [framed(tag("chain", 5), self.game_id, name.encode(), key)]
        for _ in range(256):
            links.append(hashlib.sha256(links[-1]).digest())
        return links

    def check_links_and_draws(self, revealed):
        """Every link follows its player's previous value; every tile placed was on its
        colour's rack, every draw made as the docs say (version 3's rule: a draw waits for the
        next value of every other seat), every pass forced."""
        names = [name for name, _, _ in self.players]
        seat_of = {name: seat for seat, name in enumerate(names)}
        chains = {name: self.chain(name, revealed[name]) for name in names}
        heads = {name: chains[name][256] for name in names}
        bags = {c: list(range(TILES)) for c in self.owner}
        racks = {c: [] for c in self.owner}
        waiting = []  # [seat, colours, values]

        def publish(seat, value):
            for item in waiting:
                if item[0] != seat:
                    item[2].append(value)
            for owner, colours, values in [w for w in waiting if len(w[2]) == len(names) - 1]:
                for colour in colours:
                    number = TILES - len(bags[colour])
                    digest = framed(tag("draw", 5), self.game_id, colour.encode(),
                                    number.to_bytes(4, "big"), revealed[names[owner]], *values)
                    racks[colour].append(bags[colour].pop(
                        int.from_bytes(digest, "big") % len(bags[colour])))
            waiting[:] = [w for w in waiting if len(w[2]) < len(names) - 1]

        for seat, (name, colours, _) in enumerate(self.players):
            publish(seat, dict(self.commitments)[name])
            waiting.append([seat, [c for c in colours for _ in range(RACK)], []])
        previous = dict(heads)
        game = Game([Player(name, colours) for name, colours, _ in self.players])
        for number, item in enumerate(self.doc.get("moves") or [], 1):
            colour, text = first_key(item)
            if text.startswith("pause "):
                continue
            name = self.owner[colour]
            move = parse_move(text)
            link = bytes.fromhex(item["link"])
            if hashlib.sha256(link).digest() != previous[name]:
                self.problems.append(f"move {number}'s link does not follow {name}'s")
            previous[name] = link
            if move.is_pass:
                fits = [t for c in game.to_move.colors if game.playable(c) for t in racks[c]
                        for sq in FIT_SQUARES[t] if allowed(game, c, Placement(t, sq))]
                if fits:
                    self.problems.append(f"move {number}: {name}'s pass is not forced")
            elif move.tile not in racks[colour]:
                self.problems.append(f"move {number}: {tile_name(move.tile)} is not on "
                                     f"{colour}'s rack")
            else:
                racks[colour].remove(move.tile)
            game.play(move, colour)
            publish(seat_of[name], link)
            if not move.is_pass and bags[colour]:
                waiting.append([seat_of[name], [colour], []])


EXAMPLE_SEATS = (("Ana", "red", "ana@example.org"), ("Bo", "blue", ""),
                 ("Cy", "green", "cy@example.org"))


def test_the_version_5_example_values_are_pinned():
    """docs/HIDDEN_DRAWS.md, "Version 5 example values": recomputed here with this file's own
    hashes and cryptography's Ed25519, then by the library. Never change them: other values
    mean that every signed game reads differently."""
    game_id = bytes.fromhex("00112233445566778899aabbccddeeff")
    keys = {name: hashlib.sha256(name.encode()).digest() for name, _, _ in EXAMPLE_SEATS}
    seeds = {name: hashlib.sha256(f"{name} signing".encode()).digest()
             for name, _, _ in EXAMPLE_SEATS}
    public = {name: ed25519_public(seed) for name, seed in seeds.items()}
    assert public["Ana"].hex() == "83d83a126b8755ca6fc242ea221af610a72744a9437069812db4a9c77b90c612"
    assert public["Cy"].hex() == "1ed171ad00f5262ddc53f360ae2f6fc76035f791041f4ef91d625b02e81839fc"
    chains, made = {}, []
    for name, _, _ in EXAMPLE_SEATS:
        links = [framed(tag("chain", 5), game_id, name.encode(), keys[name])]
        for _ in range(256):
            links.append(hashlib.sha256(links[-1]).digest())
        chains[name] = links
        made.append(framed(tag("commit", 5), game_id, name.encode(), links[256], public[name],
                           *made))
    assert [c.hex() for c in made] == [
        "6d7a50c791071d22ef8d85cab25195f82ff174848a5831d83eacc24aa0505136",
        "84606a8bf8db8fb0de80d48c821a2794d1b53e5ee85c259c1b4a5b9976de8f67",
        "863f62cc41f13a7ae1afdf3e7e700f30580aab7ae76c578345be6c863bc21b5e"]
    fields = [b"standard", b""]
    for name, colour, address in EXAMPLE_SEATS:
        fields += [name.encode(), colour.encode(), address.encode()]
    timing = [b"move 72h grace 168h", b"pass", b"14d", b"2026-12-01T15:36:00Z"]
    header = framed(tag("header", 5), game_id, *fields, *timing)
    assert header.hex() == "9c201c1e01dd429a3305cecf1a362b6a833b56be1465d15f17e6e5120573ec56"
    digest, joins = header, []
    for (name, _, _), commitment in zip(EXAMPLE_SEATS, made):
        digest = framed(tag("join", 5), digest, name.encode(), commitment, public[name])
        joins.append(digest)
    assert [d.hex() for d in joins] == [
        "30c5721ddfc64168914e43ce53de69c59e4041913d0142a99d1d19017b948ef6",
        "2efb8f213e530d31200a3d5938f184e4f81b3ef9be9840364fabcf9ce6a8a258",
        "d309757c89fd401e817358ab53c8f7b463db9ec6f1215cb9d740649a51e29cf4"]
    assert ed25519_sign(seeds["Ana"], joins[0]).hex() == (
        "84dffe75aa12914887938a1d7c8a4dc83f7099b687f6c2d8ee9120a77be96a8b"
        "5dae79b50f87aa0efcaa5471a7691e47b92f478a520e33dfcead48590571dc0d")
    link = chains["Ana"][255]
    assert link.hex() == "834971fb87da0d99ec23ab34ed4f50cd2145a4a839f86089cead8d9a19921051"
    first = framed(tag("entry", 5), digest, b"red", b"7 B7", b"link", link, b"at",
                   b"2026-12-01T18:02:11Z")
    assert first.hex() == "eababae95990b28cd01d901990d98eec94fe43a3d61b892e111da17fddf342da"
    assert ed25519_sign(seeds["Ana"], first).hex() == (
        "8e1feb6540be6e8087e11a12f70e4691492b28a9dfafbdcc80d172175123b5da"
        "5fdb63d5b16684e5a34378dbaabfcdabffc61698040c5a22802dd0e7b068f409")
    second = framed(tag("entry", 5), first, b"blue", b"pass", b"at", b"2026-12-09T10:00:00Z",
                    b"by", b"Cy")
    assert second.hex() == "a828eec0513acec60622f95f283eb79747646d22532f5169b94c82046526a4a4"
    paused = framed(tag("entry", 5), second, b"green", b"pause 2d", b"at",
                    b"2026-12-09T10:02:00Z", b"from", b"2026-12-12T00:00:00Z")
    assert paused.hex() == "ffec940df0d210cb583bba7e2096d95e90b22fc2015768f548ea142715283cbb"
    third = framed(tag("entry", 5), paused, b"green", b"man C3", b"link", chains["Cy"][255],
                   b"at", b"2026-12-09T10:05:00Z")
    assert third.hex() == "ddae3b928b3d1b791af2aac0fc8ab44ff2e2b32a6ab2dedd74191294f3e702ac"
    assert ed25519_sign(seeds["Cy"], third).hex() == (
        "bc00f8e44aeecf503492ecec0f690e4203ec184978dc9ce5fc8bde7d3f7f0a27"
        "85026af83c02b6f26795e3d6a2fa23f430240295949c0078593c8bd50ae9bc07")
    reveal = framed(tag("reveal", 5), third, b"Ana", keys["Ana"])
    assert reveal.hex() == "5fb16fc1d15c742da8983b8630c839cc85ca8aca51541e299912ee80d99c3138"
    assert ed25519_sign(seeds["Ana"], reveal).hex() == (
        "4ba9351807f18bf9d5a7a5b2fc401391ba7f45e786b326adc72bb4410a35aaaf"
        "c056b18f6f093b80e9d423ba58d85a7ff2353131ec3ca09fb328d8e42f19130f")
    values, drawn = example_draws(5, game_id, keys)
    assert drawn == [24, 18, 9, 0, 1, 4]

    from uptown_cli.fairplay import draws, signatures

    assert signatures.public_key(seeds["Ana"]) == public["Ana"]
    assert draws.commitment(game_id, "Bo", chains["Bo"][256], made[:1], 5, public["Bo"]) == made[1]
    assert signatures.join_digest(header, "Ana", made[0].hex(), public["Ana"].hex()) == joins[0]
    assert signatures.entry_digest(digest, "red", "7 B7", [
        ("link", link.hex()), ("at", "2026-12-01T18:02:11Z")]) == first
    assert signatures.entry_digest(second, "green", "pause 2d", [
        ("at", "2026-12-09T10:02:00Z"), ("from", "2026-12-12T00:00:00Z")]) == paused
    assert signatures.reveal_digest(third, "Ana", keys["Ana"].hex()) == reveal
    assert signatures.sign(seeds["Cy"], third) == ed25519_sign(seeds["Cy"], third)
    assert signatures.verify(public["Cy"], ed25519_sign(seeds["Cy"], third), third)
    assert not signatures.verify(public["Ana"], ed25519_sign(seeds["Cy"], third), third)


@pytest.fixture(scope="module")
def signed_game(tmp_path_factory):
    """A game of version 5 the tool played through the command line: Ana, Bo and Cy with
    hidden racks, a clock, a vacation of Bo's after his first move, random bots to the end,
    every key revealed. The folder, holding ``g.yaml``."""
    from support.cli import Uptown
    from support.players import play_to_end

    uptown = Uptown()
    folder = tmp_path_factory.mktemp("signed")
    path = folder / "g.yaml"
    players = [arg for name, _, _ in EXAMPLE_SEATS for arg in ("-p", f"{name} <{name.lower()}@example.org>")]
    env = {name: {"UPTOWN_KEYS": str(folder / f"keys-{name}"), "UPTOWN_GAME": None,
                  "UPTOWN_NOW": "2026-12-01T12:00:00Z"} for name, _, _ in EXAMPLE_SEATS}
    for args, name in [(("new", path, "--hidden", *players, "--clock", "move 72h",
                         "--vacation", "14d"), "Ana")] + [
            (("join", path, "--as", name), name) for name, _, _ in EXAMPLE_SEATS] + [
            (("move", path, "--bot", "random", "--as", "Ana"), "Ana"),
            (("move", path, "--bot", "random", "--as", "Bo"), "Bo"),
            (("pause", path, "--as", "Bo", "--days", "3"), "Bo")]:
        result = uptown.invoke(*args, env=env[name])
        assert result.exit_code == 0, result.output
    play_to_end(path, env)
    for name, _, _ in EXAMPLE_SEATS:
        result = uptown.invoke("reveal", path, "--as", name, env=env[name])
        assert result.exit_code == 0, result.output
    return folder


def test_a_signed_game_the_tool_played_checks_by_the_docs_alone(uptown, signed_game):
    """Every signature, commitment, link and draw of the tool's game (a vacation and a reveal
    by every player included), checked by this file's own reading of the docs."""
    path = signed_game / "g.yaml"
    check = SignedCheck(path.read_text())
    assert check.problems == []
    assert uptown.invoke("validate", path).exit_code == 0


@pytest.mark.parametrize("edit", ["text", "signature", "vacation", "reveal", "header"])
def test_the_docs_checker_and_the_tool_refuse_the_same_edits(uptown, tmp_path, signed_game,
                                                             edit):
    """An edit of a signed game (a move's text, a signature moved, a vacation taken out, a
    revealed key's signature dropped, an address changed) is found by this file's checker and
    by the tool alike."""
    text = (signed_game / "g.yaml").read_text()
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith("  - ")]
    moves = lines.index("moves:\n")
    entries = [i for i in starts if i > moves]
    if edit == "text":  # the first move's square, in lower case
        i = entries[0]
        lines[i] = lines[i][:-3] + lines[i][-3:].lower()
    elif edit == "signature":  # the signatures of the first two moves swapped
        sigs = [i for i, line in enumerate(lines) if i > moves and line.startswith("    sig: ")]
        lines[sigs[0]], lines[sigs[1]] = lines[sigs[1]], lines[sigs[0]]
    elif edit == "vacation":
        i = next(i for i in entries if "pause" in lines[i])
        end = next(j for j in range(i + 1, len(lines)) if not lines[j].startswith("    "))
        del lines[i:end]
    elif edit == "reveal":
        i = next(i for i, line in enumerate(lines) if line.startswith("revealed:"))
        j = next(j for j in range(i, len(lines)) if lines[j].startswith("    sig: "))
        del lines[j]
    else:
        i = next(i for i, line in enumerate(lines) if "email: bo@example.org" in line)
        lines[i] = lines[i].replace("bo@", "b0@")
    edited = "".join(lines)
    assert SignedCheck(edited).problems
    path = write(tmp_path, edited)
    checked = uptown.invoke("validate", path)
    if edit == "reveal":  # a warning (anyone may merge a revealed key), not an error
        assert "warning" in checked.output and "Ana's revealed key" in checked.output
    else:
        assert checked.exit_code == 1, checked.output
