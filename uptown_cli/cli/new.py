"""The command that starts a game: ``new`` (players, colours, variant, seed; hidden racks)."""

import os
import re
from typing import TYPE_CHECKING

import click

from ..engine.game import COLORS, PLAYER_COUNTS
from ..engine.geometry import shown_color
from ..i18n import _
from .exits import converted
from .loading import game_path
from ..errors import display_path
from .options import COLOR_CHOICE, VARIANT_CHOICE, file_argument, json_option
from .output import Output

if TYPE_CHECKING:
    from ..records.entries import PlayerEntry

__all__: list[str] = []


def parse_player(text: str) -> tuple[str, tuple[str, ...], str | None, str | None]:
    """``NAME [<EMAIL> [LANG]][:COLOR[,COLOR]]`` as (name, colours, email or None, the language
    of their mail or None: ``Flo <flo@example.org> es``), or a BadParameter saying what is
    wrong: a NAME holding ``<`` or ``>`` must be ``NAME <ADDRESS>`` with an address that
    ``records.names.address_problem`` takes; a name is what a record may hold, and no MIME
    encoded word (``records.names``)."""
    from ..records.names import address_problem, encoded_word_warning, name_problem
    from ..records.schema import LANG
    from ..records.editing import check_utf8

    with converted(param_hint="--player"):
        check_utf8("name", text)
    name, sep, colors = text.rpartition(":")
    if not sep or ">" in colors:
        name, colors = text, ""
    email = lang = None
    if "<" in name or ">" in name:
        found = re.fullmatch(rf"([^<>]*)<([^<>]*)>\s*(?:({LANG.pattern})\s*)?", name)
        problem = (_("a player is NAME, or NAME <ADDRESS> and the language of their mail (es, "
                     "en)") if found is None else address_problem(found.group(2).strip()))
        if problem is not None:
            raise click.BadParameter(_("{text!r}: {problem}").format(text=text, problem=problem), param_hint="--player")
        assert found is not None  # no problem found
        name, email, lang = found.group(1).strip(), found.group(2).strip(), found.group(3)
    if "," in name:
        raise click.BadParameter(_("{text!r}: give --player once for each player (-p Ana -p Bo), not a "
                                   "list").format(text=text), param_hint="--player")
    problem = name_problem(name) or encoded_word_warning("the name", name)
    if problem is not None:
        raise click.BadParameter(_("{text!r}: {problem}").format(text=text, problem=problem), param_hint="--player")
    wanted = tuple(COLOR_CHOICE.word(c) or c.strip().lower() for c in colors.split(",")) \
        if colors else ()
    for color in wanted:
        if color not in COLORS:
            raise click.BadParameter(_("{text!r}: unknown colour {color!r} (the colours are {COLORS})")
                                     .format(text=text, color=color, COLORS=', '.join(
                                         map(shown_color, COLORS))), param_hint="--player")
    return name, wanted, email, lang


def check_lineup(entries: "list[PlayerEntry]") -> None:
    """A BadParameter for the first reason the players cannot sit at one table
    (``records.lineup.lineup_problems``)."""
    from ..records.lineup import lineup_problems

    problems = lineup_problems(entries)
    if problems:
        raise click.BadParameter(problems[0][1], param_hint="--player")


def read_card(text: str) -> tuple[str, str]:
    """A club judge's card, ``ADDRESS KEY`` (its address and public signing key, 64 hex
    digits, as ``uptown judge init`` prints it), given as such or as a file holding it: (the
    address, the key); a BadParameter for anything else."""
    from ..records.hidden_fields import KEY_DIGITS, is_hex
    from ..records.names import address_problem

    if os.path.isfile(text):
        with converted(param_hint="--judge"):
            from ..records.reading import read_file

            text = read_file(text).strip()
    words = text.split()
    if len(words) != 2 or not is_hex(words[1], KEY_DIGITS):
        raise click.BadParameter(_("a judge's card is its address and its key (64 hex digits), "
                                   "as uptown judge init prints it, or a file holding them"),
                                 param_hint="--judge")
    problem = address_problem(words[0])
    if problem is not None:
        raise click.BadParameter(problem, param_hint="--judge")
    return words[0], words[1]


def _seed(value: str | None) -> str | None:
    """``--seed``: any text but a blank one."""
    if value is not None and not value.strip():
        raise click.BadParameter(_("a seed must not be blank (leave --seed out for a random one)"))
    return value


@click.command()
@file_argument
@click.option("--player", "-p", "players", multiple=True, required=True, metavar="NAME[:COLOR[,COLOR]]",
              help="A player, in turn order (2 to 5); colours are dealt red, blue, green, yellow, "
              "orange when not named. NAME may carry an email, and after it the language of "
              "the player's mail: \"Ana <ana@example.org> es\".")
@click.option("--variant", type=VARIANT_CHOICE, default="standard", show_default=True)
@click.option("--seed", callback=lambda ctx, param, value: _seed(value),
              help="The seed that fixes every bag (default: a random one).")
@click.option("--hidden", is_flag=True,
              help="Hidden racks: no seed; each player joins with a secret key (uptown join).")
@click.option("--signed", is_flag=True, help="Every entry signed by its writer: each player "
              "joins with a signing key of their own (uptown join); games with hidden racks "
              "always are.")
@click.option("--clock", metavar="SPEC", help="The time control: 'move 72h grace 168h', "
              "'bank 36h +12h', judges, bga, little-golem, or none (the default: nobody is "
              "ever late). See docs/DEADLINES.md.")
@click.option("--late", metavar="POLICY", help="What others may do for a player out of time: "
              "wait (the default), pass, bot [NAME], forfeit; 'pass, forfeit after 2'.")
@click.option("--vacation", metavar="V", help="Vacation per player: none (the default), "
              "14d (in the game) or '30d per year'.")
@click.option("--judge", "judge_card", metavar="CARD", help="Play under the club judge whose "
              "card this is ('ADDRESS KEY', as uptown judge init prints it, or a file holding "
              "it): every copy goes through the judge, which keeps the time. Entries are "
              "signed. See docs/JUDGE.md.")
@json_option
def new(file: str | None, players: tuple[str, ...], variant: str, seed: str | None, hidden: bool,
        signed: bool, clock: str | None, late: str | None, vacation: str | None,
        judge_card: str | None, as_json: bool) -> None:
    """Create a new game record (never overwrites a file).

    \b
    Example:
      uptown new club.yaml --player Ana --player Bo --player Cy:orange
    """
    import secrets

    from ..fairplay.draws import new_game_id
    from ..pictures.text import to_move_text
    from ..records.safe_file import create_record
    from ..records.lineup import deal_colors
    from ..records.schema import load_record_text
    from ..records.entries import PlayerEntry
    from ..records.editing import render_record

    path = game_path(file)
    if path == "-":
        raise click.UsageError(_("new writes a file; give its name, not -"))
    if len(players) not in PLAYER_COUNTS:
        raise click.UsageError(_("a game has 2 to 5 players; {players_count} given with --player")
                               .format(players_count=len(players)))
    entries = []
    for text in players:
        name, colors, email, lang = parse_player(text)
        entries.append(PlayerEntry(name, colors, 0, email, lang))
    check_lineup(entries)
    deal_colors(entries)
    timing = timing_keys(clock, late, vacation, hidden)
    judge = read_card(judge_card) if judge_card is not None else None
    unreachable = [e.name for e in entries if judge is not None and e.email is None]
    if unreachable:
        raise click.BadParameter(_("every player of a game under a club judge needs an address "
                                   "(the judge mails them the game): {name} has none").format(
            name=unreachable[0]), param_hint="--player")
    signed = signed or judge is not None
    if judge is not None and timing is None:  # the judge's join deadline runs from the start
        from ..engine.moments import write_time
        from .timing import now

        timing = {"started": write_time(now())}
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise click.ClickException(_("{folder}: no such folder; create it first")
                                   .format(folder=display_path(folder)))
    if hidden:
        _new_hidden(path, entries, variant, seed, as_json, timing, judge)
        return
    seed = secrets.token_hex(4) if seed is None else seed
    game_id = new_game_id().hex()  # every game its own: copies are told apart by it
    with converted(param_hint="--player/--seed"):
        text = render_record(entries, variant=variant, seed=seed, timing=timing,
                             game_id=game_id, signed=signed, judge=judge)
    create_record(path, text)
    record = load_record_text(text, path)
    game = record.new_game()
    shown_clock = record.timing.describe() if record.timing else None
    if as_json:
        assert game.to_move is not None  # a new game has a player to move
        Output(as_json).json({
            "path": display_path(path), "variant": variant, "seed": seed, "game": game_id,
            "signed": signed, "judge": judge and judge[0], **_timing_json(timing),
            "players": [{"name": p.name, "colors": list(p.colors)} for p in game.players],
            "to_move": game.to_move.name, "to_join": entries[0].name if signed else None,
        })
        return
    from ..pictures.tile_names import variant_label

    who = ", ".join(f"{p.name} ({' '.join(map(shown_color, p.colors))})" for p in game.players)
    click.echo(_("Created {path}: {variant}, seed {seed}; {players}.").format(
        path=display_path(path), variant=variant_label(variant), seed=seed, players=who))
    if shown_clock:
        click.echo(shown_clock)
    if signed:
        if judge is None:
            click.echo(_("Every entry is signed by its writer."))
        _join_lines(display_path(path), entries[0].name, judge)
        return
    click.echo(to_move_text(game))


def timing_keys(clock: str | None, late: str | None, vacation: str | None,
                hidden: bool) -> dict[str, str] | None:
    """The keys ``new`` writes for ``--clock``, ``--late`` and ``--vacation`` (canonical, with
    ``started`` now: ``cli.timing.now``), None without a clock; a UsageError (exit 2) for a
    value that is wrong, a bot policy naming no bot of uptown's among them."""
    from ..engine.clock import Clock
    from ..engine.moments import write_time
    from ..engine.late import LatePolicy, Vacation
    from .options import BOT_NAMES
    from .timing import now

    if clock is None or clock.strip().lower() == "none":
        for option, value in (("--late", late), ("--vacation", vacation)):
            if value is not None:
                raise click.UsageError(_("{option} needs --clock: without a clock nobody is late")
                                       .format(option=option))
        if clock is None:
            return None
    with converted(usage=True):
        parsed = Clock.parse(clock)
        if parsed is None:
            return None
        policy = LatePolicy.parse(late or "wait")
        policy.check(hidden)
        allowed = Vacation.parse(vacation or "none")
    if policy.bot is not None and policy.bot not in BOT_NAMES:
        raise click.BadParameter(_("{bot!r} is not a bot of uptown's ({names})").format(
            bot=policy.bot, names=", ".join(BOT_NAMES)), param_hint="--late")
    return {"clock": str(parsed), "late": str(policy),
            "vacation": "none" if allowed is None else str(allowed), "started": write_time(now())}


def _timing_json(timing: dict[str, str] | None) -> dict[str, str | None]:
    """The keys ``new --json`` adds for a game with a clock (none without one)."""
    from ..records.times import clock_json

    return clock_json(timing) if timing else {}


def _new_hidden(path: str, entries: "list[PlayerEntry]", variant: str, seed: str | None,
                as_json: bool, timing: dict[str, str] | None = None,
                judge: tuple[str, str] | None = None) -> None:
    """``new --hidden``: a game whose players join with their own keys (see ``hidden``)."""
    from .hidden import create_hidden

    if seed is not None:
        raise click.UsageError(_("--hidden and --seed exclude each other (a seed shows every rack)"))
    game_id = create_hidden(path, entries, variant, timing, judge)
    shown = display_path(path)
    if as_json:
        Output(as_json).json({
            "path": shown, "variant": variant, "hidden": game_id, "judge": judge and judge[0],
            **_timing_json(timing),
            "players": [{"name": e.name, "colors": list(e.colors)} for e in entries],
            "to_join": entries[0].name,
        })
        return
    from ..pictures.tile_names import variant_label

    who = ", ".join(f"{e.name} ({' '.join(map(shown_color, e.colors))})" for e in entries)
    click.echo(_("Created {path}: {variant}, hidden racks; {players}.").format(
        path=shown, variant=variant_label(variant), players=who))
    click.echo(_("Game id: {id}").format(id=game_id))
    if timing and "clock" in timing:
        from ..engine.late import LatePolicy

        from ..records.times import clock_line

        vacation = timing["vacation"]
        click.echo(clock_line(timing["clock"], str(LatePolicy.parse(timing["late"])),
                              None if vacation == "none" else vacation))
    _join_lines(shown, entries[0].name, judge)


def _join_lines(shown: str, first: str, judge: tuple[str, str] | None) -> None:
    """What a new game's players do next: join in turn order (under a club judge, once the
    club gave the judge the game and the judge mailed it to them)."""
    if judge is None:
        click.echo(_("The players join in turn order, each on their own computer; first:"))
    else:
        click.echo(_("Under the club judge {address}: every copy goes to the judge, which keeps "
                     "the time (docs/JUDGE.md). The club gives it the game: uptown judge add "
                     "FOLDER {path}. Once the judge has mailed it to them, the players join in "
                     "turn order, each on their own computer, mailing their join to the judge; "
                     "first:").format(address=judge[0], path=shown))
    click.echo(f"  uptown join {shown} --as {first}")


COMMANDS = {command.name: command for command in (new,)}
