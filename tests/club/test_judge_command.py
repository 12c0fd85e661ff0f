"""``uptown judge add`` and ``uptown judge run`` as a secretary types them: the sources of a
run (a pipe, a Maildir), ``--dry-run``, ``--page``, and the mistakes told in one line."""

import json

import pytest
from support.club import smtp_server  # noqa: F401  (a fixture)
from support.tables import ClubJudge

CLOCK = ("--clock", "move 24h", "--late", "forfeit")


@pytest.fixture
def club(tmp_path, smtp_server):
    """Ana and Bo and their judge, a game of theirs given to it and joined by both."""
    club = ClubJudge(tmp_path, smtp_server, ("Ana", "Bo"))
    club.new("duo.yaml", ("Ana", "Bo"), *CLOCK)
    for name in ("Ana", "Bo"):
        club.uptown(name, "join", "duo.yaml", "--as", name)
        club.post(name, "duo.yaml")
    return club


def ana_moves(club):
    """Ana plays and writes the message to the judge (not delivered): its path."""
    club.uptown("Ana", "move", "duo.yaml", "--bot", "random", "--as", "Ana")
    message = club.folders["Ana"] / "move.eml"
    club.uptown("Ana", "send", "duo.yaml", "--as", "Ana", "-o", message)
    return message


def test_a_dry_run_says_what_it_would_do_and_changes_nothing(club):
    message = ana_moves(club)
    judged = (club.folder / "games" / "duo.yaml").read_bytes()
    said = club.judge("run", club.folder, "--stdin", "--dry-run", input=message.read_bytes())
    assert "duo.yaml: stamped move 1 (Ana's " in said.stdout
    assert "A dry run: nothing was kept, marked read or sent." in said.stderr
    assert (club.folder / "games" / "duo.yaml").read_bytes() == judged
    assert club.server.capture.messages == []
    assert "stamped move 1" in club.mail(message)  # handled for real afterwards


def test_a_run_reads_a_maildir_and_marks_each_message_read(club, tmp_path):
    maildir = tmp_path / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    delivered = f"{int(club.now.timestamp())}.1.host"  # delivered now, the Maildir name says
    (maildir / "new" / delivered).write_bytes(ana_moves(club).read_bytes())
    said = club.judge("run", club.folder, "--maildir", maildir)
    assert "duo.yaml: stamped move 1 (Ana's " in said.stdout
    assert list((maildir / "new").iterdir()) == []
    [read] = (maildir / "cur").iterdir()
    assert read.name.endswith(":2,S")
    assert "stamped" not in club.judge("run", club.folder, "--maildir", maildir).stdout
    assert json.loads(club.uptown("Bo", "show", "duo.yaml", "--json").stdout)["to_move"] == "Bo"


def test_a_run_writes_the_clubs_page_of_the_judges_games(club, tmp_path):
    club.judge("run", club.folder, "--page", tmp_path / "site")
    page = (tmp_path / "site" / "index.html").read_text()
    assert "duo.yaml" in page and "Ana to move" in page


def test_a_run_from_two_sources_or_with_no_way_to_send_is_a_usage_error(club, tmp_path):
    club.judge("run", club.folder, "--stdin", "--maildir", tmp_path, code=2)
    assert "give one of --stdin, --maildir and --imap" in club.runs[-1]
    club.server.env.pop("UPTOWN_SMTP")
    club.judge("run", club.folder, code=2)
    assert "how should the judge's mail go?" in club.runs[-1]


def test_a_folder_that_is_no_judges_is_one_line(club, tmp_path):
    (tmp_path / "empty").mkdir()
    club.judge("run", tmp_path / "empty", code=1)
    assert club.runs[-1].count("\n") == 1 and "Error:" in club.runs[-1]


def test_status_names_the_judge_that_keeps_the_time(club):
    said = club.uptown("Ana", "status")
    assert "players' word" not in said.stderr
    [status] = json.loads(club.uptown("Ana", "status", "--json").stdout)
    assert status["judge"] == "judge@club.example"


def test_a_game_of_another_judge_or_one_begun_is_not_taken(club, tmp_path):
    other = "judge@elsewhere.example " + "ab" * 32
    club.uptown("Ana", "new", "other.yaml", "-p", "Ana <ana@example.org>", "-p",
                "Bo <bo@example.org>", "--judge", other)
    club.judge("add", club.folder, club.folders["Ana"] / "other.yaml", code=1)
    assert "is not a game under this judge" in club.runs[-1]
    club.judge("add", club.folder, club.folders["Ana"] / "duo.yaml", code=1)  # joined already
    assert "has begun already" in club.runs[-1]


def test_a_folder_that_is_no_judges_gets_no_database(club, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("not a judge\n")
    club.judge("run", tmp_path / "notes", code=1)
    assert sorted(p.name for p in (tmp_path / "notes").iterdir()) == ["readme.txt"]


def test_a_game_file_that_cannot_be_read_is_one_line(club, tmp_path):
    (tmp_path / "latin1.yaml").write_bytes("name: Jos\xe9\n".encode("latin-1"))
    club.judge("add", club.folder, tmp_path / "latin1.yaml", code=1)
    assert club.runs[-1].count("\n") == 1 and "UTF-8" in club.runs[-1]


def test_the_games_given_before_a_refused_one_are_mailed(club, tmp_path):
    club.uptown("Ana", "new", "next.yaml", "-p", "Ana <ana@example.org>", "-p",
                "Bo <bo@example.org>", "--judge", club.card)
    club.judge("add", club.folder, club.folders["Ana"] / "next.yaml",
               club.folders["Ana"] / "duo.yaml", code=1)  # duo.yaml has begun
    assert "Sent 1 message." in club.runs[-1]
    assert (club.folders["Bo"] / "next.yaml").exists()


def test_mail_that_cannot_go_is_exit_status_1_and_waits(club):
    message = ana_moves(club)
    club.server.env["UPTOWN_SMTP"] = "smtp://127.0.0.1:1?tls=no"  # nobody listens there
    said = club.judge("run", club.folder, "--stdin", input=message.read_bytes(), code=1)
    assert "stamped move 1" in said.stdout and "the rest waits for the next run" in said.stderr


def test_a_mail_setting_that_cannot_work_is_a_usage_error_before_anything_is_done(club):
    message = ana_moves(club)
    club.server.env["UPTOWN_SMTP"] = "ftp://example.org"
    club.judge("run", club.folder, "--stdin", input=message.read_bytes(), code=2)
    assert "stamped" not in club.runs[-1]
