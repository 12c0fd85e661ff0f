"""``uptown receive``: a received game compared with the local copy and saved only when it
carries it further; every hostile message refused in one line with nothing written; mbox and
Maildir."""

import gzip
import json
import mailbox
import os
from email.message import EmailMessage
from email.utils import formatdate

import pytest
from support.club import PLAYERS, game, message_of, ok, receive, run, snapshot  # noqa: F401

from uptown_cli.club.mail import GameFile, game_messages
from uptown_cli.club.mime import message_game
from uptown_cli.records.reading import load_record

# -- the four cases ------------------------------------------------------------------------


def test_receive_saves_a_copy_that_extends_the_local_one(game):
    sender, receiver = game
    result = ok(receive(receiver, message_of(sender).as_bytes()))
    assert result.output.startswith("Saved club.yaml: move 2 (Bo: ")
    assert result.output.rstrip().endswith("; Cy to move.")
    assert (receiver / "club.yaml").read_bytes() == (sender / "club.yaml").read_bytes()
    assert sorted(os.listdir(receiver)) == ["club.yaml"]  # no temporary or lock file left


def test_receive_the_same_copy_writes_nothing(game):
    sender, receiver = game
    data = message_of(sender).as_bytes()
    ok(receive(receiver, data))
    before = snapshot(receiver)
    result = ok(receive(receiver, data))
    assert "already holds this copy of the game (2 moves); nothing was written" in result.output
    assert snapshot(receiver) == before


def test_receive_an_older_copy_writes_nothing(game):
    sender, receiver = game
    (receiver / "club.yaml").write_bytes((sender / "club.yaml").read_bytes())
    ok(run(["move", "club.yaml", "--bot", "random"], cwd=receiver))
    before = snapshot(receiver)
    result = ok(receive(receiver, message_of(sender).as_bytes()))
    assert "is newer than the received copy; nothing was written" in result.output
    assert snapshot(receiver) == before


def diverge(sender, receiver):
    """The receiver plays another move 2 than the sender did."""
    played = load_record(sender / "club.yaml").moves[-1].text
    legal = json.loads(ok(run(["moves", "club.yaml", "--json"], cwd=receiver)).output)["moves"]
    ok(run(["move", "club.yaml", next(m for m in legal if m != played)], cwd=receiver))


def test_receive_refuses_a_copy_that_rewrites_the_history(game):
    sender, receiver = game
    diverge(sender, receiver)
    before = snapshot(receiver)
    result = receive(receiver, message_of(sender).as_bytes())
    assert result.exit_code == 1
    line = result.output.strip()
    assert "\n" not in line and "the games diverge at move 2" in line
    assert line.endswith("refused: your copy is unchanged, the received one is kept as "
                         "club.received-1.yaml")
    assert snapshot(receiver) == {**before,
                                  "club.received-1.yaml": (sender / "club.yaml").read_bytes()}


def test_receive_keeps_both_copies_of_another_game_and_overwrites_nothing(game, tmp_path):
    """Another game is refused, both kept: the received copy goes to the first free
    NAME.received-N.yaml (a name already taken, even by a link, is passed by); the same
    message again finds it kept."""
    sender, receiver = game
    other = tmp_path / "other"
    other.mkdir()
    ok(run(["new", "club.yaml", *PLAYERS, "--seed", "8"], cwd=other))
    (receiver / "club.received-1.yaml").write_text("mine\n")
    (receiver / "club.received-2.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    local = (receiver / "club.yaml").read_bytes()
    data = message_of(other).as_bytes()
    for _ in range(2):
        result = receive(receiver, data)
        assert result.exit_code == 1 and "not the same game (seed differ)" in result.output
        assert result.output.strip().endswith("the received one is kept as club.received-3.yaml")
        assert sorted(os.listdir(receiver)) == [
            "club.received-1.yaml", "club.received-2.yaml", "club.received-3.yaml", "club.yaml"]
        assert (receiver / "club.yaml").read_bytes() == local
        assert (receiver / "club.received-1.yaml").read_text() == "mine\n"
        kept = receiver / "club.received-3.yaml"
        assert kept.read_bytes() == (other / "club.yaml").read_bytes()
    assert not (tmp_path / "elsewhere.yaml").exists()


def test_receive_into_a_folder_shows_where_the_received_copy_is_kept(game, tmp_path):
    sender, receiver = game
    diverge(sender, receiver)
    result = receive(tmp_path, message_of(sender).as_bytes(), "--into", "bo/club.yaml")
    assert result.exit_code == 1
    assert result.output.strip().endswith("is kept as bo/club.received-1.yaml"), result.output
    assert (receiver / "club.received-1.yaml").read_bytes() == (sender / "club.yaml").read_bytes()


def test_receive_refuses_in_one_line_when_the_copy_cannot_be_kept(game, tmp_path):
    sender, receiver = game
    other = tmp_path / "other"
    other.mkdir()
    ok(run(["new", "club.yaml", *PLAYERS, "--seed", "8"], cwd=other))
    before = snapshot(receiver)
    receiver.chmod(0o555)
    try:
        result = receive(receiver, message_of(other).as_bytes())
    finally:
        receiver.chmod(0o755)
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1
    assert "the received one could not be kept (could not create club.received-1.yaml" \
        in result.output
    assert snapshot(receiver) == before


def test_receive_merges_hidden_copies_whose_reveals_differ(uptown, tmp_path):
    """A finished game with hidden racks: Ana's copy has her key revealed, the received one
    Bo's. Revealed keys are a set: the copies merge, Ana's copy gains Bo's key, and the
    game validates."""

    path = tmp_path / "duel.yaml"
    keys = {name: {"UPTOWN_KEYS": str(tmp_path / f"keys-{name}")} for name in ("Ana", "Bo")}
    ok(uptown.invoke("new", path, "--hidden", "-p", "Ana <ana@example.org>",
                     "-p", "Bo <bo@example.org>"))
    for name in ("Ana", "Bo"):
        ok(uptown.invoke("join", path, "--as", name, env=keys[name]))
    while True:
        data = uptown.json("show", path, "--json")[1]
        if data["finished"]:
            break
        name = data["to_move"]
        ok(uptown.invoke("move", path, "--bot", "random", "--as", name, env=keys[name]))
    finished = path.read_bytes()
    ok(uptown.invoke("reveal", path, "--as", "Bo", env=keys["Bo"]))
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "duel.yaml").write_bytes(path.read_bytes())
    path.write_bytes(finished)
    ok(uptown.invoke("reveal", path, "--as", "Ana", env=keys["Ana"]))
    mine = path.read_bytes()
    [outgoing] = game_messages(GameFile.read(str(theirs / "duel.yaml"), "duel.yaml"), "Bo", "Ana")
    message = outgoing.message
    result = receive(tmp_path, message.as_bytes(), "--into", "duel.yaml")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == ("Saved duel.yaml: Bo revealed their key (merged with the "
                                     "keys of your copy); the game is over.")
    merged = path.read_text()
    assert merged.startswith(mine.decode()) and merged.count("\n") == mine.count(b"\n") + 1
    assert uptown.invoke("validate", path).exit_code == 0
    assert not list(tmp_path.glob("duel.received-*"))


def test_receive_refuses_an_illegal_extension(game):
    sender, receiver = game
    path = sender / "club.yaml"
    path.write_text(path.read_text() + "  - green: 7 A1\n")
    result = receive(receiver, message_of(sender).as_bytes())
    assert result.exit_code == 1 and "nothing was written" in result.output


def test_receive_into_saves_a_new_game_after_validating(game, tmp_path):
    sender, _ = game
    new = tmp_path / "cy"
    new.mkdir()
    result = ok(receive(new, message_of(sender).as_bytes(), "--into", "games.yaml"))
    assert result.output.strip() == "Saved games.yaml: a new game, 2 moves; Cy to move."
    assert (new / "games.yaml").read_bytes() == (sender / "club.yaml").read_bytes()


def test_a_first_receive_into_an_empty_folder_saves_the_game_under_its_attachment_name(
        game, tmp_path):
    sender, _ = game
    empty = tmp_path / "empty"
    empty.mkdir()
    result = ok(receive(empty, message_of(sender).as_bytes()))
    assert result.output == "Saved club.yaml: a new game, 2 moves; Cy to move.\n"
    assert os.listdir(empty) == ["club.yaml"]
    assert (empty / "club.yaml").read_bytes() == (sender / "club.yaml").read_bytes()


def test_receive_into_refuses_an_invalid_game(game, tmp_path):
    sender, _ = game
    path = sender / "club.yaml"
    path.write_text(path.read_text() + "  - green: 7 A1\n")
    new = tmp_path / "cy"
    new.mkdir()
    result = receive(new, message_of(sender).as_bytes(), "--into", "club.yaml")
    assert result.exit_code == 1 and "the attached game is invalid" in result.output
    assert os.listdir(new) == []


def test_receive_writes_through_a_symbolic_link_and_keeps_it(game):
    sender, receiver = game
    os.rename(receiver / "club.yaml", receiver / "real.yaml")
    os.symlink("real.yaml", receiver / "club.yaml")
    ok(receive(receiver, message_of(sender).as_bytes()))
    assert os.path.islink(receiver / "club.yaml")
    assert (receiver / "real.yaml").read_bytes() == (sender / "club.yaml").read_bytes()


def test_receive_reads_a_message_file_and_json(game):
    sender, receiver = game
    (receiver / "move.eml").write_bytes(message_of(sender).as_bytes())
    result = ok(run(["receive", "move.eml", "--json"], cwd=receiver))
    assert '"outcome": "extended"' in result.output and '"written": true' in result.output


# -- hostile messages ----------------------------------------------------------------------


def plain(text="Your move."):
    message = EmailMessage()
    message["From"] = "ana@example.org"
    message["To"] = "bo@example.org"
    message["Subject"] = "[uptown] club.yaml"
    message.set_content(text)
    return message


def attach(message, data, name="club.yaml", maintype="application", subtype="yaml"):
    message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return message


def no_game(game_data):
    return plain().as_bytes()


def two_games(game_data):
    return attach(attach(plain(), game_data), game_data + b"# another\n", "other.yaml").as_bytes()


def game_over_1_mib(game_data):
    return attach(plain(), game_data + b"#" * (1024 * 1024)).as_bytes()


def malformed_mime(game_data):
    data = attach(plain(), game_data).as_bytes()
    return data[:data.rindex(b"--")]  # the closing boundary is missing


def bad_base64(game_data):
    return (b"From: ana@example.org\nSubject: x\nMIME-Version: 1.0\n"
            b'Content-Type: multipart/mixed; boundary="B"\n\n'
            b"--B\nContent-Type: text/plain\n\nYour move.\n"
            b"--B\nContent-Type: application/yaml\nContent-Transfer-Encoding: base64\n"
            b'Content-Disposition: attachment; filename="club.yaml"\n\n'
            b"dXB0b3du=Oi=AxC*\n--B--\n")


def nested_too_deep(game_data):
    """1,000 multiparts, one in the other, in 65 KB: the parser would recurse 1,000 deep."""
    head = b"From: ana@example.org\nMIME-Version: 1.0\n"
    nested = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (n, n)
                      for n in range(1000))
    return head + nested + b"Content-Type: text/plain\n\nhi\n"


def bad_file_name_charset(game_data):
    return mime_part(game_data, "application/yaml", "filename*=undefined''club.yaml")


def bad_text_charset(game_data):
    return mime_part(game_data, "text/x-yaml; charset=undefined", 'filename="club.yaml"')


def mime_part(data, content_type, disposition, encoding="8bit", sender="bo@example.org"):
    """A message as a mail program writes it by hand: a plain body and one part."""
    return (f"From: Bo <{sender}>\nTo: cy@example.org\nSubject: game\nMIME-Version: 1.0\n"
            'Content-Type: multipart/mixed; boundary="XYZ"\n\n--XYZ\n'
            "Content-Type: text/plain; charset=us-ascii\n\nYour move.\n\n--XYZ\n"
            f"Content-Type: {content_type}\nContent-Disposition: attachment; {disposition}\n"
            f"Content-Transfer-Encoding: {encoding}\n\n").encode() + data + b"\n--XYZ--\n"


def compressed(game_data):
    return attach(plain(), gzip.compress(game_data), "club.yaml.gz", "application",
                  "gzip").as_bytes()


def html_only(game_data):
    message = EmailMessage()
    message["From"] = "ana@example.org"
    message["Subject"] = "[uptown] club.yaml"
    message.set_content("<p>Your move</p>", subtype="html")
    return attach(message, game_data).as_bytes()


HOSTILE = {
    no_game: "no game is attached",
    two_games: "2 games are attached ('club.yaml', 'other.yaml')",
    game_over_1_mib: "the attached game is over 1 MiB",
    malformed_mime: "malformed MIME (CloseBoundaryNotFound",
    bad_base64: "malformed MIME (",
    compressed: "'club.yaml.gz' is compressed",
    html_only: "HTML-only mail is not read",
    nested_too_deep: "the message has more than 100 MIME parts",
    bad_file_name_charset: "the attachment's file name is not readable as its charset says",
    bad_text_charset: "the attached game is not readable as its charset says ('undefined')",
}


@pytest.mark.parametrize("make", list(HOSTILE), ids=lambda f: f.__name__)
@pytest.mark.parametrize("into", [(), ("--into", "new.yaml")], ids=["local", "into"])
def test_a_hostile_message_is_one_line_exit_1_and_nothing_written(game, make, into):
    sender, receiver = game
    before = snapshot(receiver)
    result = receive(receiver, make((sender / "club.yaml").read_bytes()), *into)
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and HOSTILE[make] in lines[0], lines
    assert lines[0].endswith("nothing was written")
    assert snapshot(receiver) == before


def test_a_hostile_message_is_refused_from_python_too(game):
    from uptown_cli.errors import MailError

    sender, _ = game
    with pytest.raises(MailError, match="no game is attached"):
        message_game(no_game(b""), "message.eml")


def test_an_oversized_message_is_refused_unread(game):
    sender, receiver = game
    result = receive(receiver, b"Subject: x\n\n" + b"x" * (16 * 1024 * 1024 + 1))
    assert result.exit_code == 1 and "the message is over 16 MiB" in result.output


# -- mbox and Maildir ----------------------------------------------------------------------


def fill(box, sender, other):
    """The newest copy, a message with no game, another game, and an older copy re-sent with
    a forged Date (Fri, 01 Jan 2100): the newest by its Date is the older copy."""
    newest = message_of(sender, date=formatdate(2_000_000_000))
    (sender / "old").mkdir()
    text = (sender / "club.yaml").read_text()
    (sender / "old" / "club.yaml").write_text(text[:text.rindex("  - ")])  # move 1 only
    older = message_of(sender / "old", date="Fri, 01 Jan 2100 00:00:00 +0000")
    box.add(newest)
    box.add(plain())
    box.add(message_of(other, date=formatdate(2_100_000_000)))
    box.add(older)
    box.flush()
    return newest


@pytest.fixture
def other_game(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    ok(run(["new", "club.yaml", *PLAYERS, "--seed", "8"], cwd=other))
    return other


def test_receive_mbox_takes_the_copy_that_carries_the_game_furthest_never_by_date(game, other_game, tmp_path):
    sender, receiver = game
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    fill(box, sender, other_game)
    box.close()
    result = ok(run(["receive", "--mbox", tmp_path / "inbox.mbox", "--into", "club.yaml"],
                    cwd=receiver))
    assert "Saved club.yaml: move 2" in result.output
    assert (receiver / "club.yaml").read_bytes() == (sender / "club.yaml").read_bytes()


def test_receive_maildir_takes_the_copy_that_carries_the_game_furthest_never_by_date(game, other_game, tmp_path):
    sender, receiver = game
    box = mailbox.Maildir(tmp_path / "Maildir")
    fill(box, sender, other_game)
    result = ok(run(["receive", "--maildir", tmp_path / "Maildir", "--into", "club.yaml"],
                    cwd=receiver))
    assert "Saved club.yaml: move 2" in result.output


def test_receive_mailbox_without_this_game_is_one_line(game, tmp_path):
    _, receiver = game
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    box.add(plain())
    box.close()
    result = run(["receive", "--mbox", tmp_path / "inbox.mbox", "--into", "club.yaml"], cwd=receiver)
    assert result.exit_code == 1
    assert result.output == "Error: club.yaml: no message in the mailbox carries this game\n"
    missing = run(["receive", "--maildir", tmp_path / "nowhere", "--into", "club.yaml"],
                  cwd=receiver)
    assert missing.exit_code == 1 and "no such Maildir folder" in missing.output


def test_an_attachment_name_that_is_no_record_name_needs_into(game):
    sender, receiver = game
    message = attach(plain(), (sender / "club.yaml").read_bytes(), "notes")
    before = snapshot(receiver)
    result = receive(receiver, message.as_bytes())
    assert result.exit_code == 1 and "no .yaml file name: give --into FILE" in result.output
    assert snapshot(receiver) == before


def test_receive_waits_for_another_writer_holding_the_lock(game, monkeypatch):
    """The received copy is written under the record's lock, as move writes: another writer
    holding it is waited for, and the player told. No timing is assumed: the holder lets go
    only once receive has said that it waits (the notice comes at the first failed try), and
    the wait may last as long as the test's own timeout."""
    import fcntl

    from uptown_cli.cli import club
    from uptown_cli.records import file_lock

    sender, receiver = game
    holder = open(receiver / "club.yaml", "rb")
    fcntl.flock(holder, fcntl.LOCK_EX)
    told = []

    def notice(path):
        tell = club_notice(path)

        def waiting():
            tell()
            told.append(path)
            holder.close()  # the other writer is done

        return waiting

    club_notice = club.lock_notice
    monkeypatch.setattr(club, "lock_notice", notice)
    monkeypatch.setattr(file_lock, "WAIT_NOTICE", 0.0)
    monkeypatch.setattr(file_lock, "LOCK_TIMEOUT", 3600.0)
    try:
        result = ok(receive(receiver, message_of(sender).as_bytes()))
    finally:
        holder.close()
    assert told == ["club.yaml"]
    assert "is locked by another program (a move being written, or a program reading it); waiting..." in result.output
    assert (receiver / "club.yaml").read_bytes() == (sender / "club.yaml").read_bytes()


@pytest.mark.parametrize("name, saved", [("-rf.yaml", "rf.yaml"), ("--into.yaml", "into.yaml"),
                                         ("- -.club.yaml", "club.yaml")])
def test_an_attachment_name_that_starts_with_a_dash_is_saved_without_it(game, tmp_path, name,
                                                                         saved):
    """A name that a command would read as an option (``rm -rf.yaml``) loses its dashes, as a
    name loses its leading dots."""
    sender, _ = game
    empty = tmp_path / "empty"
    empty.mkdir()
    message = attach(plain(), (sender / "club.yaml").read_bytes(), name)
    result = ok(receive(empty, message.as_bytes()))
    assert result.output.startswith(f"Saved {saved}: a new game")
    assert os.listdir(empty) == [saved]


def test_a_record_of_100000_unknown_keys_is_read_once_with_ten_suggestions(game, monkeypatch):
    """A 1 MB attachment of 100,000 unknown keys took 7.5 s: read twice, and the nearest known
    key looked for at each. Now it is read once, and only the first ten unknown keys are given
    one (scripts/bench_club.py measures it)."""
    import difflib

    from uptown_cli.records import schema

    sender, receiver = game
    data = (sender / "club.yaml").read_bytes() + b"".join(
        b"k%05d: 1\n" % number for number in range(100_000))
    message = attach(plain(), data)
    checks, suggestions = [], []
    check, close = schema.SchemaReader.check, difflib.get_close_matches
    monkeypatch.setattr(schema.SchemaReader, "check",
                        lambda self: checks.append(1) or check(self))
    monkeypatch.setattr(difflib, "get_close_matches",
                        lambda *args, **kwargs: suggestions.append(1) or close(*args, **kwargs))
    before = snapshot(receiver)
    result = receive(receiver, message.as_bytes())
    assert result.exit_code == 1 and "unknown key 'k00000'" in result.output
    assert len(checks) == 1 and len(suggestions) == schema.SUGGESTED_KEYS
    assert snapshot(receiver) == before
