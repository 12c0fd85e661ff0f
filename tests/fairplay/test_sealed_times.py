"""Times under the seal (protocol uptown-hidden-4, docs/HIDDEN_DRAWS.md "Version 4"): a move's
``at``, a pass written for a player out of time, and the clock are covered by the seals, through
the command line with one key folder per player (as tests/fairplay/test_attacks.py); games of
uptown-hidden-3 keep their times unsealed and stay valid."""

import pytest
from support.players import as_player, refused

from uptown_cli.records.reading import load_record

def said(path, number):
    """What every tool says of Ana's move ``number`` once her seal of it is proven broken."""
    color = load_record(path).moves[number - 1].color
    return (f"move {number} (Ana's {color}), or an entry before it, was changed after Ana "
            "played it: Ana's seal does not cover it")


def at(uptown, tmp_path, name, now, *args):
    """``uptown ARGS`` run on ``name``'s computer at ``now`` (``UPTOWN_NOW``)."""
    return uptown.invoke(*args, env={**as_player(tmp_path, name), "UPTOWN_NOW": now})


def play(uptown, tmp_path, path, name, now):
    result = at(uptown, tmp_path, name, now, "move", path, "--bot", "random", "--as", name)
    assert result.exit_code == 0, result.output
    return result


def new_game(uptown, tmp_path, players, *options, protocol="uptown-hidden-4"):
    """A hidden game made at 09:00 and joined by ``players``, rewritten to ``protocol`` (an
    older version: the seals are protocol 4's; from protocol 5 every entry is signed instead)
    before anyone joins, who then join it with --older-protocol."""
    path = tmp_path / "g.yaml"
    result = at(uptown, tmp_path, "nobody", "2026-12-03T09:00:00Z", "new", path, "--hidden",
                *[x for n in players for x in ("-p", n)], *options)
    assert result.exit_code == 0, result.output
    path.write_text(path.read_text().replace("uptown-hidden-5", protocol))
    for name in players:
        older = ("--older-protocol",)
        result = at(uptown, tmp_path, name, "2026-12-03T09:00:00Z", "join", path, "--as", name,
                    *older)
        assert result.exit_code == 0, result.output
    return path


def forget(tmp_path, name):
    """``name`` throws their tool's memory away."""
    for seen in (tmp_path / f"keys-{name}").glob("*.seen"):
        seen.unlink()


def line_of(path, number):
    return load_record(path).moves[number - 1].line


def refused_as(uptown, tmp_path, path, name, now, message):
    """``name``'s tool refuses to play on from ``path`` at ``now``, saying ``message``."""
    refused(at(uptown, tmp_path, name, now, "move", path, "--bot", "random", "--as", name),
            message)


def bo_is_named(uptown, tmp_path, path, now, number=1, sealed=2):
    """Bo, his memory thrown away, plays on at ``now``: his own tool names him as the one who
    changed Ana's move ``number`` (at its line), his seal of move ``sealed`` being the first
    over the change."""
    forget(tmp_path, "Bo")
    refused_as(uptown, tmp_path, path, "Bo", now,
               f"{path}:{line_of(path, number)}: {said(path, number)}; Bo's seal of move "
               f"{sealed} is the first over the change: Bo changed it")


def test_a_move_time_changed_after_it_was_played_breaks_its_movers_seal(uptown, tmp_path):
    """Bo, his memory thrown away, moves Ana's first move an hour earlier, then plays. Ana's
    tool refuses the file (its memory); without it, her key shows that her seal does not
    cover the time, and the file says so to everyone once she plays on; Bo's own tool then
    names him."""
    path = new_game(uptown, tmp_path, ("Ana", "Bo", "Cy"))
    play(uptown, tmp_path, path, "Ana", "2026-12-03T10:00:00Z")
    forget(tmp_path, "Bo")
    text = path.read_text()
    assert text.count('at: "2026-12-03T10:00:00Z"') == 1
    path.write_text(text.replace('at: "2026-12-03T10:00:00Z"', 'at: "2026-12-03T09:00:00Z"'))
    play(uptown, tmp_path, path, "Bo", "2026-12-03T11:00:00Z")
    play(uptown, tmp_path, path, "Cy", "2026-12-03T12:00:00Z")
    first = line_of(path, 1)
    refused_as(uptown, tmp_path, path, "Ana", "2026-12-03T13:00:00Z",
               "move 1's time changed since Ana saw it")
    forget(tmp_path, "Ana")
    result = play(uptown, tmp_path, path, "Ana", "2026-12-03T13:00:00Z")
    assert (f"Warning: {path}:{first}: {said(path, 1)}; who changed it is named when Bo plays "
            "next (Bo's seal of move 2 is the next over the change)") in result.stderr
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-03T13:00:00Z"})
    assert result.exit_code == 0
    assert f"{path}:{first}: warning: {said(path, 1)}; who" in result.stdout
    bo_is_named(uptown, tmp_path, path, "2026-12-03T14:00:00Z")


def test_a_clock_changed_after_the_first_move_breaks_every_seal_before(uptown, tmp_path):
    """Bo lengthens the clock after Ana's first move and plays: Ana's memory refuses the file;
    her key shows that her seal of move 1 does not cover the clock; Bo's tool names him."""
    path = new_game(uptown, tmp_path, ("Ana", "Bo"), "--clock", "move 72h grace 168h")
    play(uptown, tmp_path, path, "Ana", "2026-12-03T10:00:00Z")
    forget(tmp_path, "Bo")
    path.write_text(path.read_text().replace("clock: move 72h grace 168h",
                                             "clock: move 720h grace 168h"))
    play(uptown, tmp_path, path, "Bo", "2026-12-03T11:00:00Z")
    refused_as(uptown, tmp_path, path, "Ana", "2026-12-03T12:00:00Z",
               "the clock changed since Ana saw it")
    forget(tmp_path, "Ana")
    first = line_of(path, 1)
    result = play(uptown, tmp_path, path, "Ana", "2026-12-03T12:00:00Z")
    assert f"Warning: {path}:{first}: {said(path, 1)}; who changed it" in result.stderr
    bo_is_named(uptown, tmp_path, path, "2026-12-03T13:00:00Z")


def test_a_pass_written_for_a_late_player_is_under_the_next_seal(uptown, tmp_path):
    """Ana passes for Bo, out of time, then plays; Bo, his memory thrown away, moves the pass's
    time earlier (still past his time) and plays. Ana's seal of move 3, the first over the
    pass, does not cover it."""
    path = new_game(uptown, tmp_path, ("Ana", "Bo"), "--clock", "move 1h grace 1h", "--late",
                    "pass")
    play(uptown, tmp_path, path, "Ana", "2026-12-03T10:00:00Z")
    result = at(uptown, tmp_path, "Ana", "2026-12-03T13:00:00Z", "move", path, "--for", "Bo",
                "pass", "--as", "Ana")
    assert result.exit_code == 0, result.output
    play(uptown, tmp_path, path, "Ana", "2026-12-03T13:10:00Z")
    forget(tmp_path, "Bo")
    text = path.read_text()
    assert 'at: "2026-12-03T13:00:00Z"\n    by: Ana\n' in text
    path.write_text(text.replace('at: "2026-12-03T13:00:00Z"', 'at: "2026-12-03T12:30:00Z"'))
    play(uptown, tmp_path, path, "Bo", "2026-12-03T13:20:00Z")
    forget(tmp_path, "Ana")
    result = play(uptown, tmp_path, path, "Ana", "2026-12-03T13:30:00Z")
    assert f"Warning: {path}:{line_of(path, 3)}: {said(path, 3)}; who changed it" in result.stderr
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-03T13:30:00Z"})
    assert result.exit_code == 0 and f"warning: {said(path, 3)}" in result.stdout


def test_a_version_3_game_with_times_stays_valid_its_times_unsealed(uptown, tmp_path):
    """A game of uptown-hidden-3 (joined with --older-protocol) writes times as any game does
    and validates; its seals do not cover them, so a time changed later is the memory's to
    refuse, not the seals'."""
    path = new_game(uptown, tmp_path, ("Ana", "Bo"), protocol="uptown-hidden-3")
    for hour, name in zip(range(10, 14), ("Ana", "Bo", "Ana", "Bo")):
        play(uptown, tmp_path, path, name, f"2026-12-03T{hour}:00:00Z")
    text = path.read_text()
    assert "protocol: uptown-hidden-3\n" in text and text.count("    at: ") == 4
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-03T14:00:00Z"})
    assert result.exit_code == 0 and "warning" not in result.stdout, result.output
    path.write_text(text.replace('at: "2026-12-03T10:00:00Z"', 'at: "2026-12-03T09:30:00Z"'))
    refused_as(uptown, tmp_path, path, "Ana", "2026-12-03T14:00:00Z",
               "move 1's time changed since Ana saw it")
    forget(tmp_path, "Ana")
    result = play(uptown, tmp_path, path, "Ana", "2026-12-03T14:00:00Z")
    assert "seal" not in result.stderr
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-03T14:00:00Z"})
    assert result.exit_code == 0 and "warning" not in result.stdout, result.output


def paused_game(uptown, tmp_path, protocol="uptown-hidden-4"):
    """Ana and Bo play one move each; Bo, the last mover, books 3 days of vacation from the
    next day; Ana plays on, her seal of move 3 over the pause; then Bo."""
    path = new_game(uptown, tmp_path, ("Ana", "Bo"), "--clock", "move 72h grace 168h",
                    "--vacation", "14d", protocol=protocol)
    play(uptown, tmp_path, path, "Ana", "2026-12-03T10:00:00Z")
    play(uptown, tmp_path, path, "Bo", "2026-12-03T11:00:00Z")
    result = at(uptown, tmp_path, "Bo", "2026-12-03T11:05:00Z", "pause", path, "--as", "Bo",
                "--days", "3", "--from", "2026-12-04T00:00:00Z")
    assert result.exit_code == 0, result.output
    play(uptown, tmp_path, path, "Ana", "2026-12-03T12:00:00Z")
    return path


PAUSE = ('  - blue: pause 3d\n    at: "2026-12-03T11:05:00Z"\n'
         '    from: "2026-12-04T00:00:00Z"\n')


def test_an_honest_version_4_game_with_pauses_validates(uptown, tmp_path):
    """Pauses by the last mover and by the player to move, each under the next seal: every
    tool accepts the game and no seal is broken."""
    path = paused_game(uptown, tmp_path)
    assert PAUSE in path.read_text()
    result = at(uptown, tmp_path, "Bo", "2026-12-07T12:00:00Z", "pause", path, "--as", "Bo",
                "--days", "1")
    assert result.exit_code == 0, result.output
    for hour, name in zip(range(13, 17), ("Bo", "Ana", "Bo", "Ana")):
        result = play(uptown, tmp_path, path, name, f"2026-12-08T{hour}:00:00Z")
        assert "seal" not in result.stderr, result.stderr
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-08T17:00:00Z"})
    assert result.exit_code == 0 and "warning" not in result.stdout, result.output


def pause_changed(uptown, tmp_path, change):
    """Bo's pause before Ana's move 3 is ``change``d (text in, text out) by Bo, his memory
    thrown away; Bo plays, then Ana without her memory: her seal of move 3 shows the change,
    and Bo's own tool names him."""
    path = paused_game(uptown, tmp_path)
    forget(tmp_path, "Bo")
    text = path.read_text()
    path.write_text(change(text))
    assert path.read_text() != text
    play(uptown, tmp_path, path, "Bo", "2026-12-08T13:00:00Z")
    forget(tmp_path, "Ana")
    third = line_of(path, 3)
    result = play(uptown, tmp_path, path, "Ana", "2026-12-08T14:00:00Z")
    assert (f"Warning: {path}:{third}: {said(path, 3)}; who changed it is named when Bo plays "
            "next (Bo's seal of move 4 is the next over the change)") in result.stderr
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-08T14:00:00Z"})
    assert result.exit_code == 0 and f"warning: {said(path, 3)}; who" in result.stdout
    bo_is_named(uptown, tmp_path, path, "2026-12-08T15:00:00Z", 3, 4)


def test_a_pause_removed_breaks_the_seal_over_it(uptown, tmp_path):
    pause_changed(uptown, tmp_path, lambda text: text.replace(PAUSE, ""))


@pytest.mark.parametrize("was, now", [("pause 3d", "pause 5d"),
                                      ('from: "2026-12-04', 'from: "2026-12-05')])
def test_a_pause_whose_days_or_start_changed_breaks_the_seal_over_it(uptown, tmp_path, was,
                                                                     now):
    pause_changed(uptown, tmp_path, lambda text: text.replace(was, now))


def test_a_pause_inserted_breaks_the_seal_over_it(uptown, tmp_path):
    """Bo adds a second pause of his own before Ana's move 3, as if written then."""
    extra = ('  - blue: pause 1d\n    at: "2026-12-03T11:30:00Z"\n'
             '    from: "2026-12-10T00:00:00Z"\n')
    pause_changed(uptown, tmp_path, lambda text: text.replace(PAUSE, PAUSE + extra))


def test_a_version_3_game_with_a_pause_stays_valid_its_pause_unsealed(uptown, tmp_path):
    """uptown-hidden-3 keeps pauses outside the history: the game validates, and a pause
    removed later breaks no seal."""
    path = paused_game(uptown, tmp_path, protocol="uptown-hidden-3")
    play(uptown, tmp_path, path, "Bo", "2026-12-08T13:00:00Z")
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-08T14:00:00Z"})
    assert result.exit_code == 0 and "warning" not in result.stdout, result.output
    path.write_text(path.read_text().replace(PAUSE, ""))
    forget(tmp_path, "Ana")
    result = play(uptown, tmp_path, path, "Ana", "2026-12-08T14:00:00Z")
    assert "seal" not in result.stderr
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-08T14:00:00Z"})
    assert result.exit_code == 0 and "warning" not in result.stdout, result.output


@pytest.mark.parametrize("removed", [False, True])
def test_a_pause_before_a_resignation_is_under_its_seal(uptown, tmp_path, removed):
    """Bo pauses at his turn, then resigns: his resignation's seal covers the pause; once the
    keys are revealed the game validates, or, the pause removed afterwards, the seal of move 4
    is named (nobody sealed the change)."""
    path = paused_game(uptown, tmp_path)
    extra = at(uptown, tmp_path, "Bo", "2026-12-07T12:00:00Z", "pause", path, "--as", "Bo",
               "--days", "1")
    assert extra.exit_code == 0, extra.output
    result = at(uptown, tmp_path, "Bo", "2026-12-07T12:10:00Z", "move", path, "forfeit",
                "--as", "Bo")
    assert result.exit_code == 0, result.output
    for name in ("Ana", "Bo"):
        result = at(uptown, tmp_path, name, "2026-12-07T13:00:00Z", "reveal", path, "--as", name)
        assert result.exit_code == 0, result.output
    if removed:
        text = path.read_text()
        path.write_text(text.replace('  - blue: pause 1d\n    at: "2026-12-07T12:00:00Z"\n', ""))
        assert path.read_text() != text
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-07T14:00:00Z"})
    if not removed:
        assert result.exit_code == 0 and "warning" not in result.stdout, result.output
        return
    assert result.exit_code == 1, result.output
    assert (f"{path}:{line_of(path, 4)}: move 4 (Bo's blue), or an entry before it, was changed "
            "after Bo played it: Bo's seal does not cover it, nor does any seal after it"
            ) in result.stdout, result.output
