"""``uptown receive`` with mail as real mail programs write it (mutt sending, forwarding and
piping; an MTA delivering to an mbox or a Maildir) and as an attacker writes it: each case is
one line, an exit status, nothing written that should not be, nothing lost."""

import mailbox
import os
import subprocess
import sys

import pytest
from support.club import game, message_of, ok, receive, run, snapshot  # noqa: F401 (a fixture)

from uptown_cli.records.reading import load_record



def another_game(tmp_path, name="club.yaml", seed="8"):
    """The folder of another game of Ana and Bo, as ``name``."""
    other = tmp_path / "other"
    other.mkdir()
    ok(run(["new", name, "-p", "Ana <ana@example.org>", "-p", "Bo <bo@example.org>", "--seed", seed],
           cwd=other))
    return other


def one_line_error(result):
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    assert "Traceback" not in result.output
    return lines[0]


def mutt_message(data, content_type="text/plain; charset=iso-8859-1", encoding="8bit",
                 disposition='attachment; filename="club.yaml"', sender="Bo <bo@example.org>"):
    """A message as mutt 2.2 sends a file attached: a text file converted to the first charset
    of $send_charset that holds it, named in Content-Disposition."""
    return (f"Date: Mon, 1 Dec 2026 15:36:00 +0100\nFrom: {sender}\nTo: Cy <cy@example.org>\n"
            "Subject: club\nMessage-ID: <20261201143600.GA1@example.org>\nMIME-Version: 1.0\n"
            'Content-Type: multipart/mixed; boundary="k1lZvvs/B4yU6o8G"\n'
            "Content-Disposition: inline\nUser-Agent: Mutt/2.2.9 (2022-11-12)\n\n"
            "--k1lZvvs/B4yU6o8G\nContent-Type: text/plain; charset=us-ascii\n"
            "Content-Disposition: inline\n\nYour move.\n\n--k1lZvvs/B4yU6o8G\n"
            f"Content-Type: {content_type}\nContent-Disposition: {disposition}\n"
            f"Content-Transfer-Encoding: {encoding}\n\n").encode() + data + b"\n--k1lZvvs/B4yU6o8G--\n"


def delivered(message, sender="bo@example.org"):
    """``message`` as exim writes it into a Maildir or mbox: with the headers it adds."""
    return (f"Return-path: <{sender}>\nEnvelope-to: cy@example.org\n"
            "Delivery-date: Mon, 01 Dec 2026 15:36:01 +0100\n"
            f"Received: from {sender.split('@')[0]} by mail.example.org with local (Exim 4.96)\n"
            "\t(envelope-from <bo@example.org>)\n\tid 1tHt2x-0001Xy-2Q\n"
            "\tfor cy@example.org; Mon, 01 Dec 2026 15:36:01 +0100\n").encode() + message


@pytest.fixture
def latin1_game(game):
    """The sender's game with an event in Latin-1 letters and a note with a line that starts
    with 'From ' (an mbox escapes it as '>From ')."""
    sender, receiver = game
    for folder in (sender, receiver):
        path = folder / "club.yaml"
        path.write_text(path.read_text().replace(
            "uptown: 1\n", 'uptown: 1\nevent: Soirée au Café\nnotes: "Round one.\n\n'
            'From the second round on, Bo keeps score."\n'))
    return sender, receiver


# -- what mail programs do to an attachment ----------------------------------------------------


@pytest.mark.parametrize("encoding", ["8bit", "quoted-printable", "base64"])
def test_a_latin1_text_attachment_as_mutt_sends_it_is_stored_as_utf8(latin1_game, encoding):
    import base64
    import quopri

    sender, receiver = latin1_game
    text = (sender / "club.yaml").read_text()
    latin1 = text.encode("latin-1")
    data = {"8bit": latin1, "quoted-printable": quopri.encodestring(latin1),
            "base64": base64.encodebytes(latin1)}[encoding]
    result = ok(receive(receiver, mutt_message(data, encoding=encoding)))
    assert result.output.startswith("Saved club.yaml: move 2")
    assert (receiver / "club.yaml").read_bytes() == text.encode("utf-8")


@pytest.mark.parametrize("disposition, saved", [
    ("attachment; filename*=utf-8''partie-%C3%A9t%C3%A9.yaml", "partie-été.yaml"),
    ('attachment; filename="=?UTF-8?Q?partie-=C3=A9t=C3=A9.yaml?="', "partie-été.yaml"),
    ("attachment; filename*0*=iso-8859-1''partie-%E9; filename*1*=t%E9.yaml", "partie-été.yaml"),
    ('attachment; filename="../../elsewhere/club.yaml"', "club.yaml"),
    ('attachment; filename="C:\\\\Users\\\\bo\\\\club.yaml"', "club.yaml"),
    ('attachment; filename=".club.yaml"', "club.yaml"),
    ("attachment; filename*=utf-8''club%1B%5B31m.yaml", "club_[31m.yaml"),
    ("attachment; filename*=utf-8''club%0A.yaml", "club_.yaml"),
    ("attachment; filename*=idna''club.yaml", "club.yaml"),
])
def test_a_first_receive_saves_the_game_under_its_attachment_name_made_plain(game, tmp_path,
                                                                             disposition, saved):
    """RFC 2231 and the common RFC 2047 names, raw 8-bit names; a path, a hidden name or a
    control character made a plain name in this folder, never outside it."""
    sender, _ = game
    folder = tmp_path / "cy"
    (folder / "inner").mkdir(parents=True)
    data = (sender / "club.yaml").read_bytes()
    message = mutt_message(data, "application/x-yaml", "8bit", disposition)
    result = ok(receive(folder / "inner", message))
    assert result.output.startswith(f"Saved {saved}: a new game, 2 moves")
    assert os.listdir(folder / "inner") == [saved] and os.listdir(folder) == ["inner"]
    assert (folder / "inner" / saved).read_bytes() == data
    assert not os.path.exists(tmp_path / "elsewhere")


@pytest.mark.parametrize("disposition, said", [
    ("attachment; filename*=undefined''club.yaml", "the attachment's file name is not readable"),
    ("attachment; filename*=punycode''club.yaml", ""),
    ('attachment; filename="=?x-unknown?q?club.yaml?="', "the attachment's file name is not readable"),
])
def test_a_file_name_in_a_charset_that_is_no_text_is_one_line(game, disposition, said):
    sender, receiver = game
    before = snapshot(receiver)
    message = mutt_message((sender / "club.yaml").read_bytes(), "application/yaml", "8bit",
                           disposition)
    result = receive(receiver, message)
    if result.exit_code == 0:  # the charset read it as some name
        assert "Traceback" not in result.output
        return
    assert said in one_line_error(result)
    assert snapshot(receiver) == before


def test_a_game_forwarded_as_a_message_is_found_inside_it(game):
    """mutt's mime_forward: Cy forwards Bo's message as message/rfc822; the sender checked is
    the forwarded message's."""
    sender, receiver = game
    inner = message_of(sender).as_bytes()
    outer = (b"From: Cy <cy@example.org>\nTo: bo@example.org\nSubject: Fwd: club\n"
             b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"F\"\n\n--F\n"
             b"Content-Type: text/plain\n\nForwarded.\n\n--F\nContent-Type: message/rfc822\n"
             b"Content-Disposition: inline\n\n" + inner + b"\n--F--\n")
    result = ok(receive(receiver, outer))
    assert result.output.startswith("Saved club.yaml: move 2") and "Warning" not in result.output
    assert (receiver / "club.yaml").read_bytes() == (sender / "club.yaml").read_bytes()


def test_a_message_piped_decoded_says_what_the_usual_cause_is(game):
    """mutt with pipe_decode set pipes the text it shows, the attachment left out."""
    _, receiver = game
    piped = (b"Date: Mon, 1 Dec 2026 15:36:00 +0100\nFrom: Bo <bo@example.org>\nSubject: club\n\n"
             b"Your move.\n\n[-- Attachment #2: club.yaml --]\n"
             b"[-- Type: application/yaml, Encoding: base64, Size: 0.4K --]\n")
    line = one_line_error(receive(receiver, piped))
    assert line == ("Error: <stdin>: no game is attached (uptown send attaches it; a mail program "
                    "that decodes a message before piping it, as mutt does with pipe_decode set, "
                    "leaves the attachment out: pipe or save the whole message); nothing was written")


def test_closed_standard_input_is_one_line(game):
    _, receiver = game
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "uptown"), "receive",
                           "--into", "club.yaml"], cwd=receiver, capture_output=True, text=True,
                          preexec_fn=lambda: os.close(0), timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == ("Error: standard input is closed: give the message's file "
                           "(uptown receive FILE.eml)\n")


def test_receive_from_a_terminal_is_a_usage_error_not_a_wait(game):
    _, receiver = game
    terminal, other_end = os.openpty()
    try:
        done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "uptown"), "receive"],
                              cwd=receiver, stdin=other_end, capture_output=True, text=True,
                              timeout=60)
    finally:
        os.close(terminal)
        os.close(other_end)
    assert done.returncode == 2
    assert done.stderr.endswith("Error: pipe a message to uptown receive, or give its file\n")


def test_a_folder_where_the_kept_copy_would_go_is_passed_by(game, tmp_path):
    sender, receiver = game
    other = another_game(tmp_path)
    (receiver / "club.received-1.yaml").mkdir()
    line = one_line_error(receive(receiver, message_of(other).as_bytes()))
    assert line.endswith("the received one is kept as club.received-2.yaml")


# -- who sent it ---------------------------------------------------------------------------


def test_a_move_mailed_by_another_player_is_saved_with_a_warning_naming_both(game):
    """Ana mails a copy whose newest move is Bo's: taken (anyone may carry a game on), but
    said, since a From header proves nothing and a player may be framed."""
    sender, receiver = game
    from uptown_cli.club.mail import GameFile, game_messages

    [message] = game_messages(GameFile.read(str(sender / "club.yaml"), "club.yaml"), "Ana", "Cy")
    result = ok(receive(receiver, message.message.as_bytes()))
    assert result.stdout.startswith("Saved club.yaml: move 2")
    assert result.stderr == ("Warning: the message is from ana@example.org (Ana), but move 2 is "
                             "Bo's (bo@example.org): check with Bo that it is theirs\n")
    data = ok(receive(receiver, message.message.as_bytes(), "--json"))  # the same copy: no news
    assert '"warnings": []' in data.stdout


def test_a_move_mailed_by_its_player_has_no_warning(game):
    sender, receiver = game
    result = ok(receive(receiver, message_of(sender).as_bytes()))
    assert result.stderr == "" and result.stdout.startswith("Saved club.yaml: move 2")


def with_from(message, value):
    """``message`` (bytes) with its From header's value replaced by ``value``."""
    head, sep, body = message.partition(b"\n\n")
    lines = [line for line in head.split(b"\n") if not line.lower().startswith(b"from:")]
    return b"\n".join([f"From: {value}".encode(), *lines]) + sep + body


@pytest.mark.parametrize("value", [
    "Bo <bo@example.org>",
    "bo@example.org",
    "bo@EXAMPLE.Org",
    "bo@example.org (Bo, <ana@example.org>)",
    '"Ana <ana@example.org>, Bo" <bo@example.org>',
    "=?utf-8?q?Ana_=3Cana=40example=2Eorg=3E?= <bo@example.org>",
    "=?utf-8?b?Qm/DqQ==?= <bo@example.org>",
    "club: Bo <bo@example.org>;",
    '"Bo" <"bo"@example.org>',
    "Bo <bo@example.org>,\n\tBo again <bo@example.org>",
])
def test_the_from_header_is_read_as_mail_programs_read_it(game, value):
    """Comments, quoted and encoded names (even holding another player's address), groups, a
    folded header, a domain in capitals: all are Bo, whose move this is."""
    sender, receiver = game
    result = ok(receive(receiver, with_from(message_of(sender).as_bytes(), value)))
    assert result.stdout.startswith("Saved club.yaml: move 2") and result.stderr == "", value


@pytest.mark.parametrize("value, shown", [
    ("Bo <ana@example.org>", "ana@example.org (Ana)"),
    ("bo@example.org (Bo) , ana@example.org", "bo@example.org (Bo), ana@example.org (Ana)"),
    ("club: Ana <ana@example.org>, Bo <bo@example.org>;",
     "ana@example.org (Ana), bo@example.org (Bo)"),
    ("Bo@example.org", "Bo@example.org"),
    ("=?utf-8?q?bo=40example=2Eorg?= <mallory@example.net>", "mallory@example.net"),
    ("undisclosed-recipients:;", "no address uptown can read"),
    ("<<<", "no address uptown can read"),
    ("=?utf-8?q?a?= " * 300 + "<bo@example.org>", "no address uptown can read"),
])
def test_a_from_header_that_is_not_only_the_movers_warns_naming_each_address(game, value, shown):
    """Several authors, another address in a name, a local part in other capitals (mail
    systems may tell them apart): a warning that names what the header holds."""
    sender, receiver = game
    result = ok(receive(receiver, with_from(message_of(sender).as_bytes(), value)))
    assert result.stdout.startswith("Saved club.yaml: move 2")
    assert result.stderr == (f"Warning: the message is from {shown}, but move 2 is Bo's "
                             "(bo@example.org): check with Bo that it is theirs\n"), value


# -- mailboxes -------------------------------------------------------------------------------


def test_an_mbox_as_an_mta_writes_it_gives_the_game_back_byte_for_byte(latin1_game, tmp_path):
    """A 7-bit text game through an mbox: its line 'From the second round...' is written
    '>From ...' there, and read back as it was."""
    sender, receiver = latin1_game
    text = (sender / "club.yaml").read_text()
    message = delivered(mutt_message(text.encode("latin-1")))
    box = tmp_path / "cy"
    box.write_bytes(b"From bo@example.org Mon Dec  1 15:36:01 2026\n"
                    + message.replace(b"\nFrom the", b"\n>From the") + b"\n")
    assert b"\n>From the second" in box.read_bytes()
    result = ok(run(["receive", "--mbox", box, "--into", "club.yaml"], cwd=receiver))
    assert result.output.startswith("Saved club.yaml: move 2")
    assert (receiver / "club.yaml").read_bytes() == text.encode("utf-8")


def test_a_first_receive_from_a_mailbox_takes_the_game_named_by_into_never_another(game, tmp_path):
    sender, receiver = game
    other = another_game(tmp_path, "g3.yaml", "9")
    ok(run(["move", "g3.yaml", "--bot", "random"], cwd=other))
    box = mailbox.mbox(tmp_path / "bo.mbox")
    box.add(message_of(sender))
    box.add(message_of(other, "g3.yaml"))  # newer, another game
    box.close()
    empty = tmp_path / "new"
    empty.mkdir()
    result = ok(run(["receive", "--mbox", tmp_path / "bo.mbox", "--into", "club.yaml"], cwd=empty))
    assert result.output.startswith("Saved club.yaml: a new game, 2 moves")
    assert (empty / "club.yaml").read_bytes() == (sender / "club.yaml").read_bytes()
    missing = run(["receive", "--mbox", tmp_path / "bo.mbox", "--into", "club2.yaml"], cwd=empty)
    assert one_line_error(missing) == "Error: no message in the mailbox carries a game named club2.yaml"
    assert sorted(os.listdir(empty)) == ["club.yaml"]


@pytest.mark.parametrize("copies", [1, 2], ids=["one-copy", "two-copies-one-game"])
def test_two_different_games_under_one_name_in_a_mailbox_are_refused(game, tmp_path, copies):
    """Counted as games, not copies: two copies of the other game (before and after a move)
    are one game more, not two."""
    sender, _ = game
    other = another_game(tmp_path, seed="9")
    box = mailbox.mbox(tmp_path / "bo.mbox")
    box.add(message_of(sender))
    box.add(message_of(other))
    if copies == 2:
        ok(run(["move", "club.yaml", "--bot", "random"], cwd=other))
        box.add(message_of(other))
    box.close()
    empty = tmp_path / "new"
    empty.mkdir()
    line = one_line_error(run(["receive", "--mbox", tmp_path / "bo.mbox", "--into", "club.yaml"],
                              cwd=empty))
    assert line.startswith("Error: 2 different games in the mailbox are attached as club.yaml")
    assert os.listdir(empty) == []


def forked(sender, tmp_path):
    """The folder of a copy of the sender's game whose move 2 is another move than the
    sender's (the same player, Bo, played two moves 2)."""
    import json

    played = load_record(sender / "club.yaml").moves[-1].text
    fork = tmp_path / "fork"
    fork.mkdir()
    text = (sender / "club.yaml").read_text()
    (fork / "club.yaml").write_text(text[:text.rindex("  - ")])
    legal = json.loads(ok(run(["moves", "club.yaml", "--json"], cwd=fork)).output)["moves"]
    ok(run(["move", "club.yaml", next(m for m in legal if m != played)], cwd=fork))
    return fork, played


@pytest.mark.parametrize("first_receive", [False, True])
def test_two_copies_in_a_mailbox_that_carry_the_game_on_differently_are_both_refused(
        game, tmp_path, first_receive):
    """A fork: each copy extends the local one (or, with no local copy, each is this game),
    but they disagree on move 2. Neither is taken, whichever is longer or newer: the line
    names both messages and the player who wrote the two moves 2."""
    sender, receiver = game
    fork, played = forked(sender, tmp_path)
    ok(run(["move", "club.yaml", "--bot", "random"], cwd=fork))  # the fork goes further
    box = mailbox.mbox(tmp_path / "bo.mbox")
    box.add(message_of(sender))
    box.add(message_of(fork))
    box.close()
    if first_receive:
        receiver = tmp_path / "new"
        receiver.mkdir()
    before = snapshot(receiver)
    line = one_line_error(run(["receive", "--mbox", tmp_path / "bo.mbox", "--into", "club.yaml"],
                              cwd=receiver))
    other = load_record(fork / "club.yaml").moves[1].text
    shown = tmp_path / "bo.mbox"
    assert line == (f"Error: club.yaml: two copies in the mailbox carry it on differently "
                    f"({shown} message 2, {shown} message 1): move 2 is Bo's {other} in one and "
                    f"Bo's {played} in the other; neither was taken (receive the right one "
                    "from its message)")
    assert snapshot(receiver) == before


def test_copies_in_a_mailbox_that_follow_one_another_are_no_fork(game, tmp_path):
    sender, receiver = game
    (sender / "old").mkdir()
    text = (sender / "club.yaml").read_text()
    (sender / "old" / "club.yaml").write_text(text[:text.rindex("  - ")])
    box = mailbox.mbox(tmp_path / "bo.mbox")
    box.add(message_of(sender))
    box.add(message_of(sender / "old"))
    box.add(message_of(sender))
    box.close()
    result = ok(run(["receive", "--mbox", tmp_path / "bo.mbox", "--into", "club.yaml"],
                    cwd=receiver))
    assert result.stdout.startswith("Saved club.yaml: move 2") and result.stderr == ""


def test_two_joins_of_one_player_with_different_keys_in_a_mailbox_are_both_refused(tmp_path):
    players = ["-p", "Ana <ana@example.org>", "-p", "Bo <bo@example.org>"]
    bo = tmp_path / "bo"
    bo.mkdir()
    ok(run(["new", "g.yaml", "--hidden", *players], cwd=bo))
    box = mailbox.mbox(tmp_path / "bo.mbox")
    for copy in ("one", "two"):
        folder = tmp_path / copy
        folder.mkdir()
        (folder / "g.yaml").write_bytes((bo / "g.yaml").read_bytes())
        ok(run(["join", "g.yaml", "--as", "Ana"], cwd=folder,
               env={"UPTOWN_KEYS": str(folder / "keys"), "UPTOWN_GAME": None}))
        box.add(message_of(folder, "g.yaml"))
    box.close()
    before = snapshot(bo)
    line = one_line_error(run(["receive", "--mbox", tmp_path / "bo.mbox", "--into", "g.yaml"],
                              cwd=bo))
    assert "two copies in the mailbox carry it on differently" in line
    assert "Ana joined with two different keys; neither was taken" in line
    assert snapshot(bo) == before


def test_an_mbox_skips_each_unreadable_message_in_one_line_and_goes_on(game, tmp_path):
    sender, receiver = game
    good = message_of(sender).as_bytes()
    nested = (b"From: x@example.org\nMIME-Version: 1.0\n"
              + b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (n, n)
                         for n in range(1000)) + b"Content-Type: text/plain\n\nhi\n")
    broken = good.replace(b'filename="club.yaml"', b"filename*=undefined''club.yaml")
    huge = b"Subject: big\n\n" + b"x" * (16 * 1024 * 1024 + 10) + b"\n"
    box = tmp_path / "bo.mbox"
    with open(box, "wb") as out:
        for number, message in enumerate([nested, huge, good, broken, b"Subject: hi\n\nhello\n"]):
            out.write(b"From someone@example.org Mon Dec  1 15:36:0%d 2026\n" % number + message + b"\n")
    result = run(["receive", "--mbox", box, "--into", "club.yaml"], cwd=receiver)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Saved club.yaml: move 2")
    shown = str(box)
    assert result.stderr.splitlines() == [
        f"Skipped {shown} message 1: the message has more than 100 MIME parts",
        f"Skipped {shown} message 2: it is over 16 MiB",
        f"Skipped {shown} message 4: the attachment's file name is not readable as its charset "
        "says ('undefined')"]


def test_an_mbox_that_is_no_mbox_or_no_file_is_one_line(game, tmp_path):
    _, receiver = game
    (tmp_path / "notes.txt").write_text("hello\n")
    os.mkfifo(tmp_path / "fifo")
    for path, said in [(tmp_path / "notes.txt", "not an mbox file"), (tmp_path / "fifo", "it is a FIFO"),
                       ("/dev/zero", "it is a device"), (tmp_path, "it is a folder")]:
        line = one_line_error(run(["receive", "--mbox", path, "--into", "club.yaml"], cwd=receiver))
        assert said in line, line


@pytest.fixture
def maildir(tmp_path):
    box = mailbox.Maildir(tmp_path / "Maildir")
    return box, tmp_path / "Maildir"


def test_a_maildir_passes_by_fifos_devices_broken_links_and_huge_files_without_waiting(
        game, maildir, tmp_path):
    """Each odd entry of cur/ is one line, read not at all (a FIFO would block, /dev/zero
    never ends, a sparse file claims 17 MiB); the newer readable message is received."""
    sender, receiver = game
    box, path = maildir
    cur = path / "cur"
    os.mkfifo(cur / "1000.fifo")
    os.symlink("/dev/zero", cur / "1001.zero")
    os.symlink(cur / "nowhere", cur / "1002.dangling")
    os.symlink(cur / "1003.loop", cur / "1003.loop")
    with open(cur / "1004.huge", "wb") as out:
        out.truncate(17 * 1024 * 1024)
    with open(cur / "1005.good:2,S", "wb") as out:
        out.write(delivered(message_of(sender).as_bytes()))
    result = run(["receive", "--maildir", path, "--into", "club.yaml"], cwd=receiver)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Saved club.yaml: move 2")
    assert result.stderr.splitlines() == [
        f"Skipped {cur}/1000.fifo: it is a FIFO, not a message file",
        f"Skipped {cur}/1001.zero: it is a device, not a message file",
        f"Skipped {cur}/1002.dangling: it is a link that leads nowhere",
        f"Skipped {cur}/1003.loop: it is a link in a loop",
        f"Skipped {cur}/1004.huge: it is over 16 MiB"]


def test_a_fifo_in_a_maildir_is_one_line_within_80_columns_saying_what_was_skipped(
        game, tmp_path):
    """A Maildir message's long file name is cut in its middle (its start, the time of
    delivery, and its end, the flags, are kept); the error then says how many were skipped."""
    _, receiver = game
    for sub in ("cur", "new", "tmp"):
        (tmp_path / "Maildir" / sub).mkdir(parents=True)
    os.mkfifo(tmp_path / "Maildir" / "cur" / "1733150000.M123456P7890.mail.example.org,S=2345,W=2400:2,S")
    result = run(["receive", "--maildir", "../Maildir", "--into", "club.yaml"], cwd=receiver)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Skipped ../Maildir/cur/1733150000.M123456P7...=2400:2,S: it is a FIFO, not a message "
        "file",
        "Error: club.yaml: no message in the mailbox carries this game; 1 was skipped"]
    assert all(len(line) <= 90 for line in result.stderr.splitlines())
    assert os.listdir(receiver) == ["club.yaml"]


def test_an_attachment_name_of_300_characters_is_quoted_short_or_said_too_long(game, tmp_path):
    sender, _ = game
    data = message_of(sender).as_bytes()
    empty = tmp_path / "empty"
    empty.mkdir()
    long_name = "a" * 295 + ".yaml"
    line = one_line_error(receive(empty, data.replace(b'filename="club.yaml"',
                                                      f'filename="{long_name}"'.encode())))
    assert line == ("Error: the attached game's name is too long to save it under (300 "
                    "characters): give --into FILE; nothing was written")
    compressed = data.replace(b'filename="club.yaml"', f'filename="{"a" * 297}.gz"'.encode())
    line = one_line_error(receive(empty, compressed))
    assert line == ("Error: <stdin>: 'aaaaaaaaaaaaaaaaaaaa...aaaaaaaaaaaaaa.gz' is compressed: "
                    "attach the game file itself; nothing was written")
    assert os.listdir(empty) == []


def test_a_maildir_message_nobody_may_read_is_passed_by(uptown, game, maildir):
    sender, receiver = game
    box, path = maildir
    unreadable = path / "cur" / "1000.secret"
    unreadable.write_bytes(message_of(sender).as_bytes())
    unreadable.chmod(0)
    (path / "new" / "1001.good").write_bytes(message_of(sender).as_bytes())
    result = uptown.run_powerless("receive", "--maildir", path, "--into", "club.yaml", cwd=receiver)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Saved club.yaml: move 2")
    assert result.stderr == f"Skipped {unreadable}: it cannot be read (Permission denied)\n"


def test_receive_of_a_message_file_that_is_a_fifo_does_not_wait(game, tmp_path):
    _, receiver = game
    os.mkfifo(tmp_path / "m.eml")
    line = one_line_error(run(["receive", tmp_path / "m.eml"], cwd=receiver))
    assert line.endswith("it is a FIFO, not a message file; nothing was written")


def test_a_first_receive_from_a_mailbox_finds_a_hidden_game_by_its_id(tmp_path):
    from uptown_cli.records.reading import load_record

    ana = tmp_path / "ana"
    ana.mkdir()
    ok(run(["new", "duel.yaml", "--hidden", "-p", "Ana <ana@example.org>", "-p", "Bo <bo@example.org>"],
           cwd=ana))
    game_id = load_record(ana / "duel.yaml").hidden.game_id
    box = mailbox.mbox(tmp_path / "bo.mbox")
    box.add(message_of(ana, "duel.yaml"))
    box.close()
    bo = tmp_path / "bo"
    bo.mkdir()
    result = ok(run(["receive", "--mbox", tmp_path / "bo.mbox", "--into", f"{game_id}.yaml"], cwd=bo))
    assert result.output.startswith(f"Saved {game_id}.yaml: a new game, 0 moves; Ana to join.")
    assert (bo / f"{game_id}.yaml").read_bytes() == (ana / "duel.yaml").read_bytes()

