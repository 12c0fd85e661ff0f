"""A player's tool verifies each signature once: what it verified, its memory names (a digest
of the key, the signature and the entry), so the player's next command verifies only the
entries new to them; nothing it names vouches for a key, a signature or an entry changed in any
way. Each command here runs as a fresh process of its player would, knowing only what that
player's memory names."""

import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from support.tables import JudgedTable, Table, forget

from uptown_cli.fairplay import signatures
from uptown_cli.fairplay.signatures import (
    new_signing_key,
    public_key,
    sign,
    signature_problems,
    signed_entries,
    verification,
    verifications,
    verify,
)
from uptown_cli.records.reading import load_record


@pytest.fixture
def verified(monkeypatch):
    """``verified(table, name, *args)``: how many signatures ``uptown ARGS``, run by ``name``
    in a process of their own, verified."""
    keys = []
    load = Ed25519PublicKey.from_public_bytes

    def counted(key):
        keys.append(key)
        return load(key)

    monkeypatch.setattr(Ed25519PublicKey, "from_public_bytes", staticmethod(counted))

    def run(table, name, *args):
        keys.clear()
        table.uptown(name, *args)
        return len(keys)

    return run


def test_a_players_command_verifies_only_the_signatures_new_to_them(tmp_path, verified):
    """Ana, Bo and Cy join (3 signed entries) and Ana plays. Bo, who last ran a command to
    join, verifies Cy's join and Ana's move at his first look, nothing at his second, and
    nothing at his move (his own signature is known to his tool). Ana then verifies Bo's move
    only; Cy, who threw his memory away, verifies all five entries."""
    table = Table(tmp_path)
    table.start()
    table.play("Ana")
    table.carry("Ana", "Bo", "Cy")
    look = ("show", "club.yaml", "--as")
    assert verified(table, "Bo", *look, "Bo") == 2
    assert verified(table, "Bo", *look, "Bo") == 0
    assert verified(table, "Bo", "move", "club.yaml", "--bot", "random", "--as", "Bo") == 0
    table.carry("Bo", "Ana", "Cy")
    assert verified(table, "Ana", *look, "Ana") == 1
    forget(table, "Cy")
    assert verified(table, "Cy", *look, "Cy") == 5


def test_the_club_judges_stamps_are_verified_once_too(tmp_path, verified):
    """In a game under a club judge, Bo's move verifies what is new to him since he joined:
    Cy's join, Ana's move and the judge's stamps under them and under his own join (5). Once
    the judge's copy brings his move back stamped, his look at it verifies that stamp alone."""
    table = JudgedTable(tmp_path)
    table.start()
    table.play("Ana")
    table.post("Ana")
    assert verified(table, "Bo", "move", "club.yaml", "--bot", "random", "--as", "Bo") == 5
    table.post("Bo")
    assert verified(table, "Bo", "show", "club.yaml", "--as", "Bo") == 1


def test_a_players_memory_vouches_for_their_own_check_only(tmp_path):
    """Ana's move carries a forged signature. Named as verified by what a reader's memory
    keeps, it passes that reader's check; a second reader in the same process, whose memory
    names nothing, is refused: the names are not taken for the process. What a record's
    memory would keep is only what was verified or named."""
    table = Table(tmp_path)
    table.start()
    table.play("Ana")
    path = table.game("Ana")
    honest = path.read_text()
    signature = load_record(path).moves[0].sig
    path.write_text(honest.replace(signature, "ab" * 64))
    record = load_record(path)
    entry = next(e for e in signed_entries(record) if e.move == 1)
    ana = bytes.fromhex(record.joins.signing_keys()["Ana"])
    forged = verification(ana, bytes.fromhex(entry.sig), entry.digest)
    signatures._VERIFIED.clear()
    assert signature_problems(record, {forged}) == ([], [])
    assert forged in verifications(record, {forged})
    assert forged not in verifications(load_record(path))
    errors, _warnings = signature_problems(load_record(path))
    assert "move 1 (Ana's red) does not carry Ana's signature" in errors[0].report_line()


def test_a_signature_verified_vouches_for_no_other_key_signature_or_entry():
    """Once Ana's signature of an entry is verified, the same signature under Bo's key, Ana's
    signature of another entry, and another signature of the entry are each verified afresh
    (and refused); each has a name of its own."""
    ana, bo = new_signing_key(), new_signing_key()
    entry, other = bytes(32), bytes(range(32))
    signature = sign(ana, entry)
    signatures._VERIFIED.clear()
    assert verify(public_key(ana), signature, entry)
    assert not verify(public_key(bo), signature, entry)
    assert not verify(public_key(ana), signature, other)
    assert not verify(public_key(ana), sign(bo, entry), entry)
    names = {verification(public_key(ana), signature, entry),
             verification(public_key(bo), signature, entry),
             verification(public_key(ana), signature, other),
             verification(public_key(ana), sign(bo, entry), entry)}
    assert len(names) == 4


def test_a_signature_one_signs_is_known_verified():
    """What a player signs, their tool knows verified under their public key, and nothing
    else."""
    ana = new_signing_key()
    signature = sign(ana, bytes(32))
    assert signatures._VERIFIED == {verification(public_key(ana), signature, bytes(32))}


def test_the_signatures_a_process_remembers_are_bounded(monkeypatch):
    """A process that verifies more signatures than it keeps starts afresh: it never holds
    more than ``_VERIFIED_HELD``, and the last one verified is held."""
    monkeypatch.setattr(signatures, "_VERIFIED_HELD", 2)
    key = new_signing_key()
    for n in range(3):
        digest = bytes([n]) * 32
        signature = sign(key, digest)
        assert verify(public_key(key), signature, digest)
        assert len(signatures._VERIFIED) <= 2
    assert verification(public_key(key), signature, digest) in signatures._VERIFIED


def test_a_memory_kept_before_signatures_were_remembered_verifies_them_all(tmp_path, verified):
    """Ana's memory without its list of verified signatures (kept by an older uptown) is read,
    and her look verifies the three joins."""
    table = Table(tmp_path)
    table.start()
    seen = next(table.keys("Ana").glob("*-Ana.seen"))
    data = json.loads(seen.read_text())
    del data["verified"]
    seen.write_text(json.dumps(data))
    assert verified(table, "Ana", "show", "club.yaml", "--as", "Ana") == 3


@pytest.mark.parametrize("names", [["not hex"], "0" * 64, [7], ["0" * 63], ["A" * 64]])
def test_a_damaged_list_of_verified_signatures_is_a_damaged_memory(tmp_path, names):
    """A memory whose list of verified signatures is not a list of 64 hex digits each is
    refused as damaged, naming the file."""
    table = Table(tmp_path)
    table.start()
    seen = next(table.keys("Ana").glob("*-Ana.seen"))
    data = json.loads(seen.read_text())
    assert len(data["verified"]) == 1  # her own join, the last entry her tool wrote
    data["verified"] = names
    seen.write_text(json.dumps(data))
    result = table.attempt("Ana", "show", "club.yaml", "--as", "Ana")
    assert result.exit_code == 1
    assert f"{seen.name} is not an uptown memory file" in result.output
