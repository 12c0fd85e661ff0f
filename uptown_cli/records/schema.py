"""The schema of a game record (format 1): ``Record``, read from text and checked.

``load_record_text`` reads a record with the strict reader of ``records.yaml_reader`` and
checks its schema, raising ``RecordError`` (whose ``problems`` lists every schema problem
found); ``records.reading.load_record`` does the same for a file. Replaying the moves and
validating are ``records.replay``'s. The format is described for users in
``records/README.md``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

from ..engine.bags import seeded_bags
from ..engine.game import COLORS, PLAYER_COUNTS, VARIANTS, Game
from ..engine.players import Player
from ..errors import RecordError
from ..i18n import N_, pgettext
from ..i18n import _ as gettext
from .entries import (
    HIDDEN_KEYS,
    JUDGED_KEYS,
    LINK_KEY,
    NOTE_KEYS,
    SIG_KEY,
    STAMP_KEYS,
    TIMING_KEYS,
    MoveEntry,
    PauseEntry,
    PlayerEntry,
)
from .lineup import deal_colors, lineup_problems
from .names import address_problem, encoded_word_warning, event_problem, name_problem
from .nodes import Mapping, Node, Scalar, Sequence, describe, rest_of_line
from .times import judged_start, read_judged, read_stamp, read_times, split_pauses
from .yaml_reader import decode, parse, to_plain

if TYPE_CHECKING:  # loaded only for games with hidden racks
    from ..engine.game import Turn
    from .disputes import Dispute
    from .hidden_fields import HiddenFields
    from .times import Timing

__all__ = ["address_problem", "Record", "load_record_text"]

FORMAT_VERSION = 1
MOVE_KEYS = (LINK_KEY, SIG_KEY, *NOTE_KEYS, *STAMP_KEYS, *JUDGED_KEYS)
"""The keys a move may carry under its colour."""
TEXT_FIELDS = ("event", "site", "date", "round", "notes")
KNOWN_KEYS = ("uptown", "variant", *TEXT_FIELDS, "players", "seed", "game", *HIDDEN_KEYS,
              *TIMING_KEYS, "disputes",
              "moves")
SUGGESTED_KEYS = 10
"""Of a record's unknown keys, the first this many are each given the known key nearest them
(``difflib``, 0.5 ms a key): a record of 100,000 unknown keys is refused in a second, not a
minute."""
PLAYER_KEYS = ("name", "colors", "email", "lang")
LANG = re.compile(r"[a-z]{2,3}(?:_[A-Z]{2})?")
"""A player's language as a record writes it: ``es``, ``pt_BR`` (docs/TRANSLATING.md)."""


class Record:
    """A record that passed the schema checks (its moves are not replayed yet).  ``tree`` is
    what its one parse produced (``yaml_reader`` nodes, with their lines and offsets in
    ``text``), so that its text can be edited without parsing it again."""

    __slots__ = ("path", "text", "version", "variant", "players", "seed", "moves", "fields",
                 "extras", "hidden", "tree", "replayed", "timing", "pauses", "joins", "game_id",
                 "checked", "disputes")

    def __init__(self, path: str, text: str, version: int, variant: str,
                 players: list[PlayerEntry], seed: str | None, moves: list[MoveEntry],
                 fields: dict[str, str] | None = None, extras: dict[str, object] | None = None,
                 hidden: HiddenFields | None = None, tree: Mapping | None = None,
                 timing: Timing | None = None) -> None:
        self.path = path
        self.text = text
        self.version = version
        self.variant = variant
        self.players = players
        self.seed = seed
        self.moves = moves
        self.fields: dict[str, str] = {} if fields is None else fields
        self.extras: dict[str, object] = {} if extras is None else extras
        self.hidden = hidden
        self.tree = tree
        self.timing = timing
        """The game's time control (``records.times.Timing``), None when it has none."""
        self.pauses: list[PauseEntry] = []
        """The vacations written among the moves (not turns: ``moves`` leaves them out)."""
        self.joins: HiddenFields | None = hidden
        """The fair-play fields: those of ``hidden``, or of an open game signed by its players
        (``records.hidden_fields``); None in an open game without them."""
        self.disputes: list[Dispute] = []
        """Each player's claim that an entry another wrote for them is wrong
        (``records.disputes``)."""
        self.checked: dict[str, Any] = {}
        """``fairplay``'s own: what it checked of this record once (its signatures), kept so
        that a command that replays it several times checks it once."""
        self.game_id: str | None = None if hidden is None else hidden.game_id
        """The game's id (``hidden:`` or ``game:``, 32 hex digits): every copy of one game,
        under any file name, has it, and no other game; None in a record made without one."""
        self.replayed: dict[int | None, tuple[Game, tuple[Turn, ...], Any]] = {}
        """``records.replay``'s own: the replays of a game with hidden racks, by ``upto`` (the
        game, its turns and the ``fairplay.check.HiddenCheck`` that checked them): the
        public replay, or once every key is revealed the whole game dealt the bags they drew.
        A player's view is checked on them, and an earlier position of a revealed game taken
        back from the whole game, without playing the moves again."""
    def parsed(self) -> Mapping:
        """``tree``, parsing ``text`` when the record was made without it."""
        if self.tree is None:
            root = parse(self.text, self.path)
            assert isinstance(root, Mapping)  # the text was read as a record
            self.tree = root
        return self.tree

    @property
    def colors(self) -> tuple[str, ...]:
        """Every colour in the game, in seat order."""
        return tuple(c for p in self.players for c in p.colors)

    @property
    def owners(self) -> dict[str, str]:
        """Each colour's player, by name: ``{"red": "Ana", "blue": "Bo"}``."""
        return {c: p.name for p in self.players for c in p.colors}

    def game_players(self) -> list[Player]:
        """The players as the engine wants them."""
        return [Player(p.name, p.colors) for p in self.players]

    def new_game(self) -> Game:
        """A game at move 0, with the seed's bags when there is a seed (the bags of a game
        with hidden racks come from its revealed keys: ``replay.replay``), scored by the
        record's variant (standard when it names none the rules know)."""
        bags = seeded_bags(self.seed, self.colors) if self.seed is not None else None
        game = Game(self.game_players(), bags,
                    variant=self.variant if self.variant in VARIANTS else "standard")
        game.seed = self.seed
        return game


def load_record_text(text: str | bytes, path: str) -> Record:
    """Read and check a record from its text (or raw bytes); ``path`` names it in errors."""
    if isinstance(text, bytes):
        text = decode(text, path)
    return SchemaReader(text, path).read()


# The hidden-racks fields and the notes under moves are read by modules imported for the
# records that have them: an open record without notes does not pay their 1.7 ms and 1.4 ms of
# CPU (python -X importtime, median of 9, 2026-12-06).

_ONE_MOVE = N_("a move is one colour and its move, like '- red: 7 B7'")


class SchemaReader:
    """Checks the node tree of a record against format 1, collecting problems."""

    def __init__(self, text: str, path: str):
        self.text = text
        self.path = path
        self.problems: list[RecordError] = []
        self.pauses: list[PauseEntry] = []
        self.warnings: list[RecordError] = []
        """What is wrong with the notes under the moves, and names or an event that mail
        programs may misread: never a problem of the record."""
    def problem(self, message: str, where: Node | int | None, move: int | None = None) -> None:
        """Note a problem at a node or a line (line 1 when there is neither)."""
        self.problems.append(self.located(message, where, move))

    def warning(self, message: str, where: Node | int | None, move: int | None = None) -> None:
        """Note a warning (a note that does not read as one, a name that mail may misread)
        at a node or a line."""
        self.warnings.append(self.located(message, where, move))

    def located(self, message: str, where: Node | int | None, move: int | None) -> RecordError:
        line = where.line if isinstance(where, Node) else where or 1
        return RecordError(message, path=self.path, line=line, move=move)

    def warn_of_encoded_words(self, what: str, text: str, where: Node) -> None:
        warning = encoded_word_warning(what, text)
        if warning is not None:
            self.warning(warning, where)

    def read(self) -> Record:
        record = self.check()
        if self.problems:
            first = self.problems[0]
            first.problems = self.problems
            raise first
        assert record is not None  # check returns None only with a problem noted
        return record

    def check(self) -> Record | None:
        """Check everything, noting the problems (in file order) in ``problems``.  Returns the
        record as far as it can be replayed: with the moves before the first one that breaks
        the format, or None when the version, the players or the seed are wrong.  Raises
        RecordError only for text that is not a YAML record at all."""
        root = parse(self.text, self.path)
        if not isinstance(root, Mapping):
            got = pgettext("a node", "nothing") if root is None else describe(root)
            self.problem(gettext("a record is a mapping of keys (uptown: 1, players: ...), but this "
                           "file holds {got}").format(got=got), root)
            return None
        extras: dict[str, object] = {}
        unknown = 0
        for key, node in root.pairs:
            if key.value.startswith("x-"):
                extras[key.value] = to_plain(node)
            elif key.value not in KNOWN_KEYS:
                unknown += 1
                self.problem(_unknown_key(key.value, suggest=unknown <= SUGGESTED_KEYS), key)
        variant = self.text_value(root, "variant")
        if variant is None:
            variant = "standard"
        elif variant not in VARIANTS:
            self.problem(gettext("unknown variant '{variant}' (standard or blockers)")
                         .format(variant=variant),
                         root.get("variant")[1])  # type: ignore[index]  # text_value found it
        fields: dict[str, str] = {}
        for name in TEXT_FIELDS:
            value = self.text_value(root, name)
            if value is not None:
                fields[name] = value
        if "event" in fields:
            where = root.get("event")[1]  # type: ignore[index]  # text_value found it
            problem = event_problem(fields["event"])
            if problem is not None:
                self.problem(problem, where)
                del fields["event"]
            else:
                self.warn_of_encoded_words("the event", fields["event"], where)
        before_game = len(self.problems)
        version = self.version(root)
        seed = self.text_value(root, "seed")
        if seed is not None and not seed.strip():
            self.problem(gettext("the seed must not be blank (leave the key out for a game without one)"),
                         root.get("seed")[1])  # type: ignore[index]  # text_value found it
        players = self.players(root)
        joins = game_id = None
        if any(root.get(key) is not None for key in HIDDEN_KEYS):
            from .hidden_fields import read_hidden  # (see below)

            joins = read_hidden(root, players, seed, self.problem, self.warning)
        elif root.get("game") is not None:
            from .hidden_fields import read_game_id  # (see below)

            game_id = read_game_id(root, self.problem)
        hidden = joins if joins is not None and joins.racks else None
        playable = len(self.problems) == before_game
        moves = self.moves(root, players)
        timing = None
        if any(m.at is not None for m in moves) or any(root.get(k) for k in TIMING_KEYS):
            timing = read_times(root, moves, hidden is not None, self.problem, self.pauses)
        if joins is not None or any(m.link is not None or m.sig is not None for m in moves) or any(
                p.sig is not None for p in self.pauses):
            from .hidden_fields import check_links, check_signatures  # (see below)

            check_links(moves, joins, self.problem)
            check_signatures(moves, self.pauses, joins, self.problem)
        disputes = []
        if root.get("disputes") is not None:
            from .disputes import read_disputes  # (see below)

            disputes = read_disputes(root, self.problem)
        self.problems.sort(key=file_order)
        if not playable:
            return None
        if timing is not None and joins is not None and joins.judge is not None:
            timing = judged_start(
                timing, [sig.judged for sig in joins.signatures["commitments"]], len(players))
        record = Record(self.path, self.text, version, variant, players, seed, moves, fields,
                        extras, hidden, root, timing)
        record.pauses = self.pauses
        record.joins = joins
        record.disputes = disputes
        record.game_id = joins.game_id if joins is not None else game_id
        return record

    def version(self, root: Mapping) -> int:
        pair = root.get("uptown")
        if pair is None:
            self.problem(gettext("the format version is missing: a record starts with 'uptown: 1'"), root)
            return FORMAT_VERSION
        value = pair[1]
        if not (isinstance(value, Scalar) and value.plain and value.value.isascii()
                and value.value.isdigit() and (value.value == "0" or value.value[0] != "0")):
            shown = value.value if isinstance(value, Scalar) else describe(value)
            self.problem(gettext("the format version must be the number 1, not {shown!r}")
                         .format(shown=shown), value)
            return FORMAT_VERSION
        if int(value.value) != FORMAT_VERSION:
            self.problem(gettext("format version {value} is not supported (this uptown reads format 1)")
                         .format(value=value.value), value)
        return int(value.value)

    def text_value(self, root: Mapping, key: str) -> str | None:
        """The text of an optional key; None when it is missing or left empty."""
        pair = root.get(key)
        if pair is None:
            return None
        value = pair[1]
        if not isinstance(value, Scalar):
            self.problem(gettext("'{key}' must be text, not {value}")
                         .format(key=key, value=describe(value)), value)
            return None
        return None if value.empty else value.value

    def players(self, root: Mapping) -> list[PlayerEntry]:
        pair = root.get("players")
        if pair is None:
            self.problem(gettext("the players are missing ('players:' with one '- name: ...' per player)"),
                         root)
            return []
        node = pair[1]
        if not isinstance(node, Sequence):
            self.problem(gettext("'players' must be a list of players, not {node}")
                         .format(node=describe(node)), node)
            return []
        entries = [entry for entry in map(self.player, node.items) if entry is not None]
        if len(entries) < len(node.items):
            return []
        for entry, message in lineup_problems(entries):
            self.problem(message, entry.line)
        if len(entries) not in PLAYER_COUNTS:
            self.problem(gettext("a game has 2 to 5 players, this one has {entries_count}")
                         .format(entries_count=len(entries)), node)
            return []
        deal_colors(entries)
        return entries

    def player(self, node: Node) -> PlayerEntry | None:
        if not isinstance(node, Mapping):
            self.problem(gettext("a player must be a mapping like 'name: Ana', not {node}")
                         .format(node=describe(node)), node)
            return None
        for key, _ in node.pairs:
            if key.value not in PLAYER_KEYS:
                self.problem(gettext("unknown key '{value}' for a player (name, colors, email, "
                                     "lang)")
                             .format(value=key.value), key)
        name_pair = node.get("name")
        if name_pair is None or not isinstance(name_pair[1], Scalar):
            self.problem(gettext("a player needs a name ('name: Ana')"),
                         node if name_pair is None else name_pair[1])
            return None
        name = name_pair[1].value
        problem = name_problem(name)
        if problem is not None:
            self.problem(problem, name_pair[1])
            return None
        self.warn_of_encoded_words("the name", name, name_pair[1])
        email, lang = self.email(node), self.lang(node)
        colors_pair = node.get("colors")
        if colors_pair is None or (isinstance(colors_pair[1], Scalar) and colors_pair[1].empty):
            return PlayerEntry(name, (), node.line, email, lang)
        value = colors_pair[1]
        items = value.items if isinstance(value, Sequence) else [value]
        colors = []
        for item in items:
            if not isinstance(item, Scalar):
                self.problem(gettext("a colour must be text, not {item}").format(item=describe(item)), item)
                return None
            if item.value not in COLORS:
                self.problem(_unknown_color(item.value), item)
                return None
            colors.append(item.value)
        return PlayerEntry(name, tuple(colors), node.line, email, lang)

    def email(self, node: Mapping) -> str | None:
        """A player's optional ``email``, checked as one address (None when left out)."""
        pair = node.get("email")
        if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
            return None
        value = pair[1]
        problem = (address_problem(value.value) if isinstance(value, Scalar)
                   else gettext("'{key}' must be text, not {value}").format(
                       key="email", value=describe(value)))
        if problem is not None:
            self.problem(problem, value)
            return None
        assert isinstance(value, Scalar)  # address_problem found no problem in its text
        return value.value

    def lang(self, node: Mapping) -> str | None:
        """A player's optional ``lang``, the language of their mail: a code like ``es`` or
        ``pt_BR`` (None when left out)."""
        pair = node.get("lang")
        if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
            return None
        value = pair[1]
        if not isinstance(value, Scalar) or LANG.fullmatch(value.value) is None:
            self.problem(gettext("'lang' must be a language code like es or pt_BR, not {value}")
                         .format(value=describe(value)), value)
            return None
        return value.value

    def moves(self, root: Mapping, players: list[PlayerEntry]) -> list[MoveEntry]:
        """The moves before the first that breaks the format (each such move is a problem)."""
        pair = root.get("moves")
        if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
            return []
        node = pair[1]
        if not isinstance(node, Sequence):
            self.problem(gettext("'moves' must be a list of moves ('- red: 7 B7'), not {node}")
                         .format(node=describe(node)),
                         node)
            return []
        in_game = {c for p in players for c in p.colors}
        items = node.items
        if "pause" in self.text:  # vacations among the moves (records.times)
            items, self.pauses = split_pauses(items, self.problem)
        entries = [self.move(number, item, in_game if players else None)
                   for number, item in enumerate(items, 1)]
        return cast("list[MoveEntry]", entries[:entries.index(None)] if None in entries else entries)

    def move(self, number: int, item: Node, in_game: set[str] | None) -> MoveEntry | None:
        if not isinstance(item, Mapping) or not item.pairs:
            self.problem(gettext(_ONE_MOVE), item, number)
            return None
        pairs = item.pairs
        link = extra = None
        if len(pairs) > 1:  # a link or notes under the move
            extra = next((key for key, _ in pairs[1:] if key.value not in MOVE_KEYS
                          and not key.value.startswith("x-")), None)
            if extra is not None and extra.value not in COLORS:
                self.problem(gettext("unknown key '{value}' in a move (a move is one colour and its move, "
                               "'- red: 7 B7', with '{LINK_KEY}:' under it in games with hidden "
                               "racks, and {NOTE_KEYS} or x- keys of your own as notes)")
                             .format(value=extra.value, LINK_KEY=LINK_KEY, NOTE_KEYS=', '.join(NOTE_KEYS)), extra, number)
                return None
            link = self.link(number, item)
        key, value = pairs[0]
        if extra is not None or (link is None and (key.value == LINK_KEY or len(pairs) > 1
                                                   and item.get(LINK_KEY) is not None)):
            self.problem(gettext(_ONE_MOVE), item, number)
            return None
        if key.value not in COLORS:
            self.problem(_unknown_color(key.value), key, number)
            return None
        if in_game is not None and key.value not in in_game:
            self.problem(gettext("{value} does not play in this game").format(value=key.value), key, number)
            return None
        if not isinstance(value, Scalar) or not value.value and value.empty:  # (text first: cheaper)
            got = describe(value)
            self.problem(gettext("move {number} ({value}) must be a move like '7 B7', not {got}")
                         .format(number=number, value=key.value, got=got),
                         value, number)
            return None
        stamp: tuple[str | None, str | None, str | None] = (None, None, None)
        if len(pairs) > 1 and any(item.get(key) for key in STAMP_KEYS):  # times (records.times)
            stamp = read_stamp(number, item, self.problem)
        sig = self.under(number, item, SIG_KEY) if len(pairs) > 1 else None
        judged: tuple[str | None, str | None] = (None, None)
        if len(pairs) > 1 and (item.get("stamp") or item.get("judged")):  # docs/JUDGE.md
            judged = read_judged(gettext("move {number}").format(number=number), item,
                                 self.problem, number)
        notes = None
        under = ((1 if link is None else 2) + sum(s is not None for s in stamp) + (sig is not None)
                 + sum(j is not None for j in judged))
        if len(pairs) > under or (  # notes, or a mark after the move
                not self.text.startswith("\n", value.end)  # (most moves end their line)
                and "#" in rest_of_line(self.text, value.end)):
            from .annotations import read_notes  # (see below)

            notes = read_notes(number, self.text, value, pairs[1:], self.warning)
        return MoveEntry(key.value, value.value, value.line, link, notes, *stamp, sig, *judged)

    def link(self, number: int, item: Node) -> str | None:
        """The text of a move's ``link`` (hidden racks), when it has one."""
        return self.under(number, item, LINK_KEY)

    def under(self, number: int, item: Node, key: str) -> str | None:
        """The text of ``key`` under move ``number`` (its ``link`` or ``sig``), when it has
        one; hex is not blank text."""
        pair = item.get(key) if isinstance(item, Mapping) and len(item.pairs) > 1 else None
        if pair is None or pair is item.pairs[0]:  # type: ignore[attr-defined]  # a Mapping's
            return None
        value = pair[1]
        if not isinstance(value, Scalar) or value.empty:
            self.problem((gettext("move {number}'s link must be 64 hex digits, not {value}")
                          if key == LINK_KEY else
                          gettext("move {number}'s signature must be 128 hex digits, not {value}"))
                         .format(number=number, value=describe(value)), value, number)
            return None
        return value.value


def file_order(problem: RecordError) -> tuple[int, int]:
    """Sort key for problems: by line, and by move among the moves on one line."""
    return (problem.line or 0, problem.move or 0)


def _unknown_color(name: str) -> str:
    return gettext("unknown colour '{name}' (the colours are {colours})").format(
        name=name, colours=", ".join(COLORS))


def _unknown_key(key: str, suggest: bool = True) -> str:
    """The problem of an unknown top-level key: the nearest known key when one is near (and
    ``suggest``), and where the keys are listed (one line of an 80-column terminal, not the
    whole list)."""
    import difflib  # loaded for a mistake only

    near = difflib.get_close_matches(key, KNOWN_KEYS, n=1) if suggest else []
    if near:
        return gettext("unknown key '{key}': did you mean '{near}'? (keys of your own begin "
                       "with x-)").format(key=key, near=near[0])
    return gettext("unknown key '{key}' (records/README.md lists the keys; keys of your own "
                   "begin with x-)").format(key=key)
