"""Signatures of protocol 5: every entry of a game carries its writer's Ed25519 signature over
the entry and the history before it, checked the moment a copy is read, by every command.

The history is a chain of digests (docs/HIDDEN_DRAWS.md, "Version 5", gives the bytes): the
game's header (its id, variant, players, e-mail addresses and clock), then each join in seat
order, then the moves, passes, forfeits and vacations in record order; a revealed key hangs
off the digest of the end of the game (copies merge revealed keys in any order), a withdrawn
join off the header. An entry's signature is over its digest, so it covers the entry as
written and every entry before it: an entry changed, moved, removed from before it or copied
from another game no longer fits it.

Who must sign: a join, a withdrawn join, a vacation and a revealed key, their player; a move,
a pass or a resignation, the player whose colour it is; a pass, a forfeit or a bot's move
written for a player out of time, the player who wrote it (``by``). The public keys are those
the joins publish, each bound by its player's commitment (``fairplay.draws.commitment``).

A signature verified is named by a digest of its key, signature and entry (``verification``),
which the process remembers and the player's memory keeps (``fairplay.memory``): a player's
command verifies only the entries new to them, and any change to a key, a signature or an
entry (so to its digest) makes another name, verified afresh. A memory's names are taken for
its own player's check only (``known``), never for the process: one process that serves two
players (a library's user, the tests) does not let one player's memory vouch for the other.

The signing is the ``cryptography`` package's Ed25519: it is imported by the functions that
sign, or verify a signature not verified before; a game of an older protocol does not load it
(about 15 ms of CPU with the OpenSSL it loads, python -X importtime, 2026-12-06).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator
from typing import NamedTuple

from ..engine.geometry import shown_color
from ..errors import RecordError
from ..i18n import _, ngettext
from ..records.entries import JUDGE, MoveEntry, PauseEntry
from ..records.hidden_fields import PROTOCOLS, SIGNED
from ..records.schema import Record
from .draws import framed_hash
from .joins import withdraws

__all__ = ["SignedEntry", "new_signing_key", "public_key", "sign", "verify", "header_digest",
           "join_digest", "entry_digest", "entry_words", "in_order", "dispute_digest", "unstamped",
           "first_kept_missing", "judged_digest", "void_digest", "reveal_digest",
           "withdraw_digest", "entry_fields",
           "signed_entries", "joins_end", "history_end", "signature_problems", "verification",
           "verifications"]

SEED_BYTES = 32
"""An Ed25519 private key's bytes (its seed)."""


def _tag(what: str) -> bytes:
    """The first field of every digest of version 5: ``uptown-hidden-5 header``."""
    return f"{PROTOCOLS[SIGNED - 1]} {what}".encode("ascii")


def new_signing_key() -> bytes:
    """A new Ed25519 private key (its 32-byte seed), from the operating system's secure random
    source."""
    return os.urandom(SEED_BYTES)


def public_key(seed: bytes) -> bytes:
    """The public half (32 bytes) of the private key ``seed`` (``public_bytes_raw``: the
    serialization module that ``public_bytes`` needs takes 14 ms to load)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()


def _message(digest: bytes) -> bytes:
    """What a signature signs: the tag ``uptown-hidden-5 signature``, then the entry's digest."""
    return _tag("signature") + digest


def sign(seed: bytes, digest: bytes) -> bytes:
    """The signature (64 bytes) with the private key ``seed`` of the entry whose digest is
    ``digest``, remembered as verified with the key's public half (``verify``)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.from_private_bytes(seed)
    signature = private.sign(_message(digest))
    _remember(verification(private.public_key().public_bytes_raw(), signature, digest))
    return signature


_VERIFIED: set[str] = set()
"""The ``verification`` of each signature this process verified or made; emptied when it
holds ``_VERIFIED_HELD`` (a process that checks game after game keeps a bounded memory: a
game has a few hundred entries)."""
_VERIFIED_HELD = 10_000

NO_NAMES: frozenset[str] = frozenset()
"""No ``verification`` known beyond the process's own."""


def verification(key: bytes, signature: bytes, digest: bytes) -> str:
    """The name of one signature verified: the framed SHA-256 of the public key, the signature
    and the entry's digest, in hex (another key, signature or entry has another)."""
    return framed_hash(_tag("verified"), key, signature, digest).hex()


def verify(key: bytes, signature: bytes, digest: bytes, known: Collection[str] = NO_NAMES) -> bool:
    """Whether ``signature`` is the signature, with the public key ``key``, of the entry whose
    digest is ``digest``. What it verifies the process remembers (``_VERIFIED``): the answer
    depends on nothing else, so a signature verified once is not verified again (each costs
    about 0.1 ms, which a game of a hundred entries would pay at every command); ``known``:
    the names a player's memory keeps, taken for this check only."""
    done = verification(key, signature, digest)
    if done in _VERIFIED or done in known:
        return True
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, _message(digest))
    except (InvalidSignature, ValueError):
        return False
    _remember(done)
    return True


def _remember(done: str) -> None:
    """Keep the ``verification`` ``done`` in ``_VERIFIED``, emptied first when full."""
    if len(_VERIFIED) >= _VERIFIED_HELD:
        _VERIFIED.clear()
    _VERIFIED.add(done)


def header_digest(record: Record) -> bytes:
    """The digest of a game's header: its id, variant and seed (empty when none), each
    player's name, colours and e-mail address (empty when none) in seat order, then the clock's
    keys (``clock``, ``late``, ``vacation``, ``started``) as written, empty when absent, and in
    a game under a club judge the judge's address and public key."""
    assert record.game_id is not None  # a game of protocol 5 has its id
    fields = [record.variant.encode("utf-8"), (record.seed or "").encode("utf-8")]
    for player in record.players:
        fields += [player.name.encode("utf-8"), " ".join(player.colors).encode("ascii"),
                   (player.email or "").encode("utf-8")]
    written = record.timing.written if record.timing is not None else {}
    fields += [written.get(key, "").encode("utf-8")
               for key in ("clock", "late", "vacation", "started")]
    judge = record.joins.judge if record.joins is not None else None
    if judge is not None:  # a game under a club judge: its address and key
        fields += [judge.email.encode("utf-8"), _hex(judge.key)]
    return framed_hash(_tag("header"), bytes.fromhex(record.game_id), *fields)


def _hex(text: str) -> bytes:
    """A hex value of the record (a commitment, a key, a link) as the bytes it stands for (a
    value that is not hex, which the record's check refuses, as its text)."""
    try:
        return bytes.fromhex(text)
    except ValueError:
        return text.encode("utf-8")


def join_digest(previous: bytes, name: str, value: str, key: str) -> bytes:
    """The digest after a join: the one before (the header, or the join of the seat before),
    the player's name, their commitment and their public signing key (each hex value as its
    bytes)."""
    return framed_hash(_tag("join"), previous, name.encode("utf-8"), _hex(value), _hex(key))


def entry_fields(entry: MoveEntry | PauseEntry) -> list[tuple[str, str]]:
    """What a signature covers of an entry among the moves, besides its colour and text: the
    keys under it and their values as written (without the YAML's quotes), those present, in
    this order: ``link``, ``at``, ``by``, ``bot`` for a move; ``at``, ``from`` for a pause. Not
    its notes (a review may add them) and not ``sig``."""
    if isinstance(entry, PauseEntry):
        pairs = [("at", entry.at), ("from", entry.start)]
    else:
        pairs = [("link", entry.link), ("at", entry.at), ("by", entry.by), ("bot", entry.bot)]
    return [(key, value) for key, value in pairs if value is not None]


def entry_digest(previous: bytes, color: str, text: str,
                 fields: list[tuple[str, str]]) -> bytes:
    """The digest after an entry among the moves: the one before, the entry's colour and
    text as written, then ``fields`` (``entry_fields``), key then value (a ``link`` as its
    bytes, every other value as its text)."""
    flat = [item for key, value in fields
            for item in (key.encode("utf-8"),
                         _hex(value) if key == "link" else value.encode("utf-8"))]
    return framed_hash(_tag("entry"), previous, color.encode("ascii"), text.encode("utf-8"),
                       *flat)


def reveal_digest(end: bytes, name: str, value: str) -> bytes:
    """The digest of a revealed key: the digest of the end of the game (``history_end``), the
    player's name and their key (as its bytes)."""
    return framed_hash(_tag("reveal"), end, name.encode("utf-8"), _hex(value))


def withdraw_digest(header: bytes, name: str, value: str, key: str) -> bytes:
    """The digest of a withdrawn join: the header, the player's name, the key that made the
    join (now public) and the public signing key of that join (each as its bytes)."""
    return framed_hash(_tag("withdraw"), header, name.encode("utf-8"), _hex(value), _hex(key))


def dispute_digest(disputed: bytes, name: str, value: str, at: str) -> bytes:
    """The digest of a dispute (or its settling): the digest of the entry disputed, the
    player's name, the dispute's value as written (``5``, ``5 settled``) and when (``at``, as
    written; empty when absent)."""
    return framed_hash(_tag("dispute"), disputed, name.encode("utf-8"), value.encode("utf-8"),
                       at.encode("utf-8"))


def judged_digest(digest: bytes, judged: str) -> bytes:
    """What a club judge signs when it stamps an entry whose digest is ``digest``: that digest
    and when the judge received it (``judged``, as written)."""
    return framed_hash(_tag("judged"), digest, judged.encode("utf-8"))


def void_digest(header: bytes, at: str) -> bytes:
    """What a club judge signs when it rules a game void: the digest of the game's header and
    when (``at``, as written)."""
    return framed_hash(_tag("void"), header, at.encode("utf-8"))


class SignedEntry(NamedTuple):
    """An entry of a signed game as its signature is checked: what it is, in words (``move 3
    (Bo's blue)``), its line and move number (None but for the moves), the player who must
    sign it, the public key that signs it when the entry itself publishes it (a join, a
    withdrawn join), its digest, its signature (hex as written; None: unsigned), whether it
    is a revealed key (which anyone may write: its key proves itself), and in a game under a
    club judge the judge's stamp."""

    what: str
    line: int
    move: int | None
    writer: str
    key: str | None
    digest: bytes
    sig: str | None
    revealed: bool = False
    judged: str | None = None
    """When the club judge received it, as written (None: not stamped)."""
    stamp: str | None = None
    """The judge's stamp (hex as written)."""


def in_order(record: Record) -> list[tuple[int, MoveEntry | PauseEntry]]:
    """The entries among the moves in record order (moves and vacations in one list), each as
    (the moves before it, the entry)."""
    numbered: list[tuple[int, MoveEntry | PauseEntry]] = [
        *enumerate(record.moves), *((pause.after, pause) for pause in record.pauses)]
    return sorted(numbered, key=lambda pair: pair[1].line)


def entry_words(kind: str, whose: str, writer: str, number: int | None = None,
                color: str = "", days: int = 0) -> str:
    """A signed entry named in words, as every message about one names it: ``move 3 (Bo's
    blue)``, ``move 4 (Bo's blue, written by Cy)``, ``Bo's vacation of 3 days after move 2``,
    ``Bo's join``. ``kind``: ``join``, ``withdrawn``, ``move`` (``number``: the move's),
    ``pause`` (``number``: the moves before it), ``revealed``, ``dispute`` and ``settled``
    (``number``: the move disputed)."""
    if kind == "pause":
        if not number:
            return ngettext("{name}'s vacation of {days} day before the first move",
                            "{name}'s vacation of {days} days before the first move",
                            days).format(name=whose, days=days)
        return ngettext("{name}'s vacation of {days} day after move {number}",
                        "{name}'s vacation of {days} days after move {number}", days).format(
            name=whose, days=days, number=number)
    if kind == "move" and writer != whose:
        return _("move {number} ({name}'s {colour}, written by {writer})").format(
            number=number, name=whose, colour=shown_color(color), writer=writer)
    if kind == "move":
        return _("move {number} ({name}'s {colour})").format(
            number=number, name=whose, colour=shown_color(color))
    if kind == "withdrawn":
        return _("{name}'s withdrawn join").format(name=whose)
    if kind in ("dispute", "settled"):
        from ..records.disputes import Dispute, dispute_words

        return dispute_words(Dispute(whose, number or 0, kind == "settled", None, None, 0))
    if kind == "revealed":
        return _("{name}'s revealed key").format(name=whose)
    return _("{name}'s join").format(name=whose)


def _history(record: Record) -> tuple[list[SignedEntry], bytes, bytes]:
    """The joins and the entries among the moves of ``record`` as signed entries, in the order
    of the history; the digest the entry after the last join is chained to; and the digest of
    the end of the history (what the next entry is chained to, and a revealed key hangs
    off). A club judge's stamps are not in the chain: each is checked on its own
    (``judged_digest``), so that a player may send several entries at once, each signed over
    the ones before, and the judge stamp them all."""
    fields = record.joins
    assert fields is not None
    digest = header_digest(record)
    found = []
    for (name, value), signature in zip(fields.commitments, fields.signatures["commitments"]):
        own = join_digest(digest, name, value, signature.key or "")
        found.append(SignedEntry(entry_words("join", name, name),
                                 fields.lines.get(("commitments", name), 1), None, name,
                                 signature.key, own, signature.sig, False, signature.judged,
                                 signature.stamp))
        digest = own
    joined = digest
    for index, entry in in_order(record):
        own = entry_digest(digest, entry.color, entry.text, entry_fields(entry))
        owner = record.owners.get(entry.color, "?")
        if isinstance(entry, PauseEntry):
            what = entry_words("pause", owner, owner, index, entry.color, entry.days)
            found.append(SignedEntry(what, entry.line, None, owner, None, own, entry.sig, False,
                                     entry.judged, entry.stamp))
        else:
            writer = entry.by or owner
            found.append(SignedEntry(entry_words("move", owner, writer, index + 1, entry.color),
                                     entry.line, index + 1, writer, None, own, entry.sig, False,
                                     entry.judged, entry.stamp))
        digest = own
    return found, joined, digest


def joins_end(record: Record) -> bytes:
    """The digest after the last join (the header's, before the first): what the next join is
    chained to."""
    return _history(record)[1]


def history_end(record: Record) -> bytes:
    """The digest of the history so far: after the last join, move, pass, forfeit or vacation
    (what the next entry among the moves is chained to, and a revealed key hangs off)."""
    return _history(record)[2]


def signed_entries(record: Record) -> list[SignedEntry]:
    """Every entry of ``record`` (a game of protocol 5) as its signature is checked, in the
    order of the history: the joins, the entries among the moves, the revealed keys, the
    withdrawn joins, the disputes."""
    fields = record.joins
    assert fields is not None and fields.signed
    found, _joined, end = _history(record)
    lines = fields.entry_lines
    for (name, value), signature, line in zip(fields.revealed, fields.signatures["revealed"],
                                              lines.get("revealed", ())):
        found.append(SignedEntry(entry_words("revealed", name, name), line, None, name,
                                 None, reveal_digest(end, name, value), signature.sig, True,
                                 signature.judged, signature.stamp))
    header = header_digest(record)
    for (name, value), signature, line in zip(fields.withdrawn, fields.signatures["withdrawn"],
                                              lines.get("withdrawn", ())):
        found.append(SignedEntry(entry_words("withdrawn", name, name), line, None,
                                 name, signature.key,
                                 withdraw_digest(header, name, value, signature.key or ""),
                                 signature.sig, False, signature.judged, signature.stamp))
    moves = {entry.move: entry.digest for entry in found if entry.move is not None}
    for dispute in record.disputes:
        from ..records.disputes import dispute_words  # (records with disputes only)

        disputed = moves.get(dispute.number, b"")
        found.append(SignedEntry(dispute_words(dispute), dispute.line, None, dispute.name, None,
                                 dispute_digest(disputed, dispute.name, dispute.text,
                                                dispute.at or ""), dispute.sig))
    return found


def unstamped(record: Record) -> list[SignedEntry]:
    """The entries of ``record`` (a game under a club judge) that the judge has not stamped:
    in the judge's own copy, none; in a player's, those they wrote since the judge's copy
    came back."""
    return [entry for entry in signed_entries(record) if entry.stamp is None]


def first_missing(record: Record, other: Record, stamped_only: bool) -> SignedEntry | None:
    """The first entry of ``record`` (a game of protocol 5; with ``stamped_only``, of those a
    club judge stamped) that ``other`` does not hold with the same signature and stamp, or
    None when it holds them all."""
    held = {entry.sig: (entry.judged, entry.stamp) for entry in signed_entries(other)}
    return next((entry for entry in signed_entries(record)
                 if (entry.stamp is not None or not stamped_only)
                 and held.get(entry.sig, (None, "")) != (entry.judged, entry.stamp)), None)


def first_kept_missing(record: Record, other: Record,
                       stamped_only: bool = False) -> SignedEntry | None:
    """``first_missing``, but for a join ``other`` undid before the first move (``join
    --undo``: a withdrawn key in ``other`` gives that very commitment, made after the same
    seats' commitments)."""
    from ..records.editing import record_without_entry  # (a join undone only)

    while (entry := first_missing(record, other, stamped_only)) is not None:
        name = _undone_join(record, other, entry)
        if name is None:
            return entry
        record = record_without_entry(record, "commitments", name)
    return None


def _undone_join(record: Record, other: Record, entry: SignedEntry) -> str | None:
    """The name of the player whose join ``entry`` (an entry of ``record``) is, when ``other``
    has no move and withdraws that join; else None."""
    fields, joins = record.joins, other.joins
    if other.moves or fields is None or joins is None:
        return None
    commitments = fields.commitments
    seat = next((i for i, found in enumerate(signed_entries(record)[:len(commitments)])
                 if found.digest == entry.digest), None)
    if seat is None:
        return None
    name, value = commitments[seat]
    earlier = [made for _name, made in commitments[:seat]]
    return name if withdraws(joins, name, value, earlier) else None


def signature_problems(record: Record, known: Collection[str] = NO_NAMES,
                       ) -> tuple[list[RecordError], list[RecordError]]:
    """``(errors, warnings)`` of ``record`` (a game of protocol 5), each signature verified once
    per record read (the result is kept in ``record.checked``), but those the process verified
    before or that ``known`` names (``verify``: what the reader's memory keeps).

    ``errors``: the first entry, in the order of the history, that is not signed by the player
    who must sign it, naming the entry and whose key signed it: unsigned (written by hand),
    signed by another player (written in their name), or signed by nobody's key as it is
    written (changed after it was signed, or its signature taken from another entry). No later
    entry is blamed: each signature covers the history before it, so theirs cannot hold, and
    saying so would blame their writers for a change they did not make.

    ``warnings``: each revealed key that is not signed by its player. Anyone may write a
    revealed entry (copies merge them), and a key counts only when it gives its player's
    commitment (``fairplay.joins``), so such an entry never makes the game invalid (it would
    be a veto anyone could cast)."""
    if "signatures" not in record.checked:
        errors: list[RecordError] = []
        warnings: list[RecordError] = []
        for entry, problem in _checked(record, known):
            if problem is None:
                continue
            if entry.revealed:
                warnings.append(RecordError(problem, path=record.path, line=entry.line))
            elif not errors:
                errors.append(RecordError(problem, path=record.path, line=entry.line,
                                          move=entry.move))
        record.checked["signatures"] = (errors, warnings)
    errors, warnings = record.checked["signatures"]
    return list(errors), list(warnings)


def _checked(record: Record, known: Collection[str]) -> Iterator[tuple[SignedEntry, str | None]]:
    """Each signed entry of ``record`` and what is wrong with its signature, or in a game
    under a club judge with the judge's stamp (None: nothing), then the judge's ruling that
    the game is void, when there is one (``known``: as for ``verify``)."""
    fields = record.joins
    assert fields is not None and fields.signed
    keys, judge = _public_keys(record)
    chained = len(fields.commitments) + len(record.moves) + len(record.pauses)
    first_unstamped: SignedEntry | None = None  # in the history (joins and moves)
    for index, entry in enumerate(signed_entries(record)):
        problem = _problem(entry, keys, known)
        if problem is None and judge is not None:
            problem = _stamp_problem(entry, judge, first_unstamped if index < chained else None,
                                     known)
        if index < chained and entry.stamp is None and first_unstamped is None:
            first_unstamped = entry
        yield entry, problem
    if fields.void is not None and judge is not None:
        digest = void_digest(header_digest(record), fields.void.at)
        good = fields.void.stamp is not None and verify(judge, bytes.fromhex(fields.void.stamp),
                                                        digest)
        yield (SignedEntry(_("the judge's ruling that the game is void"), fields.void.line, None,
                           JUDGE, None, digest, fields.void.stamp),
               None if good else _("the judge's ruling that the game is void does not carry "
                                   "the judge's stamp: it was written by hand"))


def _public_keys(record: Record) -> tuple[dict[str, bytes], bytes | None]:
    """``(keys, judge)``: each player's public key as their join publishes it, with the club
    judge's under ``JUDGE``; the judge's (None: the game has none)."""
    fields = record.joins
    assert fields is not None and fields.signed
    keys = {name: bytes.fromhex(key) for name, key in fields.signing_keys().items()}
    judge = bytes.fromhex(fields.judge.key) if fields.judge is not None else None
    if judge is not None:
        keys[JUDGE] = judge
    return keys, judge


def _signer_key(entry: SignedEntry, keys: dict[str, bytes]) -> bytes | None:
    """The public key that must have signed ``entry``: the one it gives (a withdrawn join), else
    its writer's (None: the writer has none)."""
    return bytes.fromhex(entry.key) if entry.key is not None else keys.get(entry.writer)


def verifications(record: Record, known: Collection[str] = NO_NAMES) -> list[str]:
    """The ``verification`` of each signature and judge's stamp of ``record``'s entries (a game of
    protocol 5) that this process verified or made, or that ``known`` names: what a player's
    memory keeps, so that their next command verifies only the entries new to them (the
    judge's ruling that a game is void, which ends it, is verified afresh)."""
    keys, judge = _public_keys(record)
    found = []
    for entry in signed_entries(record):
        key = _signer_key(entry, keys)
        if key is not None and entry.sig is not None:
            found.append(verification(key, bytes.fromhex(entry.sig), entry.digest))
        if judge is not None and entry.stamp is not None and entry.judged is not None:
            found.append(verification(judge, bytes.fromhex(entry.stamp),
                                      judged_digest(entry.digest, entry.judged)))
    return [done for done in found if done in _VERIFIED or done in known]


def _stamp_problem(entry: SignedEntry, judge: bytes, unstamped: SignedEntry | None,
                   known: Collection[str]) -> str | None:
    """What is wrong with the club judge's stamp under ``entry`` (None: nothing): given the
    judge's public key, and the first entry of the history before it that the judge has not
    stamped (the judge stamps each entry as it receives it, so none after it can be stamped).
    An entry not stamped yet is no problem here: a player's copy holds their own entry until
    the judge's copy comes back (``receive`` takes only the judge's copies)."""
    if entry.stamp is None:
        return None
    if unstamped is not None:
        return _("{what} carries the judge's stamp, but {earlier} before it does not: the judge "
                 "stamps every entry it receives, in order, so {earlier} was written around the "
                 "judge").format(what=entry.what, earlier=unstamped.what)
    assert entry.judged is not None  # the record's check keeps the two together
    if verify(judge, bytes.fromhex(entry.stamp), judged_digest(entry.digest, entry.judged), known):
        return None
    return _("{what} does not carry the judge's stamp as it is written: it, or the time the "
             "judge received it, was changed after the judge stamped it").format(what=entry.what)


def _problem(entry: SignedEntry, keys: dict[str, bytes], known: Collection[str]) -> str | None:
    """What is wrong with ``entry``'s signature, given the players' public keys, or None
    (``known``: as for ``verify``)."""
    if entry.sig is None:
        return _("{what} is not signed (every entry of a game of protocol {protocol} carries "
                 "its writer's signature): it was written by hand").format(
            what=entry.what, protocol=PROTOCOLS[SIGNED - 1])
    key = _signer_key(entry, keys)
    if key is None:
        return _("{what} is written for {writer}, who has not joined the game with a signing "
                 "key").format(what=entry.what, writer=entry.writer)
    signature = bytes.fromhex(entry.sig)
    if verify(key, signature, entry.digest, known):
        return None
    signer = next((name for name, other in keys.items()
                   if name != entry.writer and verify(other, signature, entry.digest)), None)
    if signer is not None:
        return _("{what} is signed by {signer}, not by {writer}: {signer} wrote it in "
                 "{writer}'s name").format(what=entry.what, signer=signer, writer=entry.writer)
    return _("{what} does not carry {writer}'s signature over the game as it is written: it, "
             "or what comes before it in the game, was changed after {writer} signed it, or its "
             "signature was taken from another entry").format(what=entry.what,
                                                                writer=entry.writer)
