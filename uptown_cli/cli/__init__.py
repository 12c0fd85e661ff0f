"""The ``uptown`` command line: thin commands over the record layer, the engine and the renderers.

Commands live in small modules by concern (``new``; ``play``: move, moves, hint; ``terminal``: play, review; ``view``: show,
replay, score, validate, diff; ``analysis``: selfplay, analyze, stats, export; ``pictures``: svg,
html; ``hidden``: join, reveal; ``club``: send, receive, status, ratings, club page;
``judge``: a club's judge; ``engines``: engine, tournament) and are registered here by name with their one-line
summaries, so that ``uptown --help`` imports none of them and a command imports only its own
module.  The shared options are in ``options``, record loading in ``loading``, the one output
path (text, tables, csv, JSON, ``-o`` files) in ``output``, exit statuses and error conversion
in ``exits``.
"""

import gc
import importlib
import inspect
import io
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any, cast

import click

from .. import __version__
from ..errors import OutputError
from ..i18n import N_, _, process_language, system_reason

__all__ = ["main", "run"]

COMMANDS = {
    "new": ("new", "Create a new game record (never overwrites a file)."),
    "move": ("play", "Play a move and append it to FILE."),
    "moves": ("play", "List the legal moves of the player to move."),
    "hint": ("play", "Suggest a move for the player to move (nothing is written)."),
    "play": ("terminal", "Play at the terminal: on a board to click, or as lines (--plain)."),
    "review": ("terminal", "Step through an analysed game: the chances, the marks and why."),
    "join": ("hidden", "Join a hidden or signed game: make your keys and commit to them."),
    "reveal": ("hidden", "Publish your key once the game is over, so all can check your draws."),
    "show": ("view", "Show the board, the players and whose turn it is."),
    "replay": ("view", "Show every position of a game in turn."),
    "score": ("view", "Print the standings (lower scores are better)."),
    "validate": ("view", "Check records and report every problem."),
    "diff": ("view", "Tell how two copies of a game relate."),
    "selfplay": ("analysis", "Let bots play one another and compare them."),
    "analyze": ("analysis", "Review every move against a bot's choice, mark the mistakes."),
    "stats": ("analysis", "Figures over many records (files or folders)."),
    "export": ("analysis", "Write one row per move of every record, as csv or JSON lines."),
    "engine": ("engines", "Serve a bot over the engine protocol on standard input and output."),
    "tournament": ("engines", "Play engines and bots against one another and rate them."),
    "send": ("club", "Email the game file, attached as it is, to the player to move."),
    "receive": ("club", "Save the game attached to an email when it carries yours further."),
    "status": ("club", "Every game in the folders (default: this one), one line each."),
    "ratings": ("club", "A rating for every player over the finished games, in date order."),
    "club": ("club", "The club's web page: uptown club page FOLDER... -o DIR."),
    "remind": ("deadlines", "Mail each late player a reminder, and the others who is late."),
    "pause": ("deadlines", "Take vacation days: NAME's clock stands still."),
    "dispute": ("deadlines", "Dispute a pass, forfeit or bot move another player wrote for you."),
    "svg": ("pictures", "Draw the board as an SVG picture."),
    "html": ("pictures", "Make one self-contained HTML page that replays the game."),
    "judge": ("judge", "A club's referee that reads its mailbox and answers by mail."),
}
"""Each command's name: (its module in this package, its one-line summary)."""

def help_text(text: str) -> str:
    """The text click shows for a help string (a docstring): up to its first form feed, without
    its indentation. It is the message of the catalogs (scripts/catalogs.py walks the commands
    for them), translated when shown."""
    return inspect.cleandoc(text).partition("\f")[0]


CLICK_WORDS = {
    click.types.IntParamType: N_("integer"), click.types.IntRange: N_("integer range"),
    click.types.FloatParamType: N_("float"), click.types.FloatRange: N_("float range"),
    click.types.StringParamType: N_("text"),
}
"""The names click gives its number types in its errors (``'x' is not a valid integer
range``), shown in the language in use."""
CLICK_MARKED = (N_("required"), N_("[OPTIONS]"), N_("COMMAND [ARGS]..."))
"""Words click shows without marking them for the catalogs: an option's ``[required]``, and
the usage line's metavars."""


class TranslatedCommand(click.Command):
    """A command whose help, summary and options' help are shown in the language in use: the
    docstrings and ``help=`` stay English in the code, as click keeps them."""

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [_(piece) if piece in CLICK_MARKED else piece
                for piece in super().collect_usage_pieces(ctx)]

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        """click's ``--help``, its help in the language in use: click makes the option once
        and keeps it, in the language of the first help asked for (a process that serves
        several languages asks for more than one)."""
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.help:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(_(help_text(self.help)))

    def get_short_help_str(self, limit: int = 45) -> str:
        if self.short_help:
            return _(self.short_help)
        return super().get_short_help_str(limit)


class TranslatedOption(click.Option):
    """An option whose help is shown in the language in use (click adds the default after it)."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        english = self.help
        self.help = _(english) if english else english
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = english

    def get_help_extra(self, ctx: click.Context) -> Any:
        """As click's, with a default word shown in the language in use (``options.WordChoice``:
        ``[default: estándar]``)."""
        extra = super().get_help_extra(ctx)
        shown = getattr(self.type, "shown", None)
        if shown is not None and "default" in extra:
            extra["default"] = shown(extra["default"])
        return extra


class TranslatedGroup(click.Group, TranslatedCommand):
    """A command of commands (``uptown``, ``uptown club``) whose usage, help and table of
    commands are shown in the language in use."""

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [_(piece) if piece in CLICK_MARKED else piece
                for piece in super().collect_usage_pieces(ctx)]

    def summary(self, ctx: click.Context, name: str) -> str:
        """The one-line summary of the command ``name`` in the language in use: the first line
        of its help."""
        command = self.get_command(ctx, name)
        return _(help_text(command.help or "")).split("\n")[0] if command is not None else ""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, self.summary(ctx, name)) for name in self.list_commands(ctx)]
        with formatter.section(_("Commands")):
            formatter.write_dl(rows)


def translated(command: click.Command, summary: str) -> click.Command:
    """``command`` (as its module's decorators made it) showing its help in the language in use,
    its one-line summary ``summary``: its class and its options' made the translating ones, so
    that no decorator of the commands' modules has to name them; a group's commands too."""
    if type(command) is click.Command:
        command.__class__ = TranslatedCommand
    if type(command) is click.Group:
        command.__class__ = TranslatedGroup
        for inner in command.commands.values():
            translated(inner, help_text(inner.help or "").split("\n")[0])
    if command.short_help is None:
        command.short_help = summary
    for param in command.params:
        if type(param) is click.Option:
            param.__class__ = TranslatedOption
        if type(param.type) in CLICK_WORDS:  # an attribute of the instance: click.INT is shared
            param.type.name = _(CLICK_WORDS[type(param.type)])
    return command


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 80}


class UptownGroup(TranslatedGroup):
    """The commands of COMMANDS, imported only when one is run or asked for by name."""

    collector_paused = False
    """Whether the program started with the cyclic garbage collector paused (``__main__``): it
    is turned back on once the command's module is imported."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def summary(self, ctx: click.Context, name: str) -> str:
        """The command's summary of COMMANDS (its module is not imported)."""
        return _(COMMANDS[name][1])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(f"{__name__}.{COMMANDS[name][0]}")
        if self.collector_paused:
            gc.freeze()
            gc.enable()
            self.collector_paused = False
        return translated(cast(click.Command, module.COMMANDS[name]), COMMANDS[name][1])

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a library error (``UptownError``) becomes one line on standard
        error and exit status 1 (``exits.converted``, the one place where that happens)."""
        from .exits import converted

        with converted():
            return super().invoke(ctx)

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """As click does, with the nearest command suggested for a mistyped one."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in COMMANDS:
            import difflib

            near = difflib.get_close_matches(name, COMMANDS, n=1)
            if near:
                ctx.fail(_("No such command '{name}'. Did you mean '{near}'? (uptown -h lists them)")
                         .format(name=name, near=near[0]))
            ctx.fail(_("No such command '{name}'. (uptown -h lists them)").format(name=name))
        return super().resolve_command(ctx, args)

    def main(self, args: Sequence[str] | None = None, *more: Any, **options: Any) -> Any:
        """As click does, in the language ``--lang`` names (read before click parses anything,
        so that even a mistake in the arguments is told in it), else the environment's
        (``i18n``); as before once done."""
        args = sys.argv[1:] if args is None else list(args)
        with process_language(lang_option(args)):
            return super().main(args, *more, **options)


def lang_option(args: Sequence[str]) -> str | None:
    """The value of ``--lang`` among ``uptown``'s own options (those before the command)."""
    words = iter(args)
    for word in words:
        if word == "--lang":
            return next(words, None)
        if word.startswith("--lang="):
            return word.partition("=")[2]
        if word == "--" or not word.startswith("-"):
            break
    return None


def show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: click's line, in the language in use when it is shown (click's own
    option translates it once, when the module is imported)."""
    if value and not ctx.resilient_parsing:
        click.echo(_("%(prog)s, version %(version)s") % {"prog": "uptown",
                                                          "version": __version__})
        ctx.exit()


@click.group(cls=UptownGroup, context_settings=CONTEXT)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=show_version, cls=TranslatedOption, help="Show the version and exit.")
@click.option("--lang", metavar="LANG", expose_value=False, cls=TranslatedOption,
              help="The language of messages (es, en); default: $UPTOWN_LANG, else LANGUAGE, "
                   "LC_ALL, LC_MESSAGES, LANG.")
def main() -> None:
    """Records of the tile game Uptown (Board Game Arena rules): create and play games by
    email, show, replay, validate and score them, and analyse many.

    FILE defaults to game.yaml, or to $UPTOWN_GAME when it is set; "-" reads standard input
    for the commands that only read. Shell completion: see the README.
    """


def run(collector_paused: bool = False) -> None:
    """The ``uptown`` program (``__main__``): ``main``, stopping silently when its output pipe closes
    (``uptown export | head -1``), as ``cat`` and other Unix tools do.  Text that the
    terminal's encoding cannot show (a Chinese name under PYTHONIOENCODING=latin-1) is
    printed as escapes such as ``\\u5f20``, never a traceback."""
    main.collector_paused = collector_paused
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if sys.stdout is None:  # started with its output closed (>&-): do nothing at all
        _stop("standard output is closed: nothing was done (give the command an output: "
              "> FILE, or | a program)")
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    _guard_output()
    try:
        try:
            main()
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()
    except OutputError as exc:
        _stop(str(exc))


class _GuardedOutput(io.RawIOBase):
    """Standard output's file descriptor, whose first failed write raises ``OutputError``
    (one line, exit status 1, from wherever the writing was); what is written after it is
    dropped, so that nothing fails again when the program ends."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data: Any) -> int:
        size = memoryview(data).nbytes
        if self.failed:
            return size
        try:
            return os.write(self.fd, data)
        except OSError as exc:
            self.failed = True
            raise OutputError(_("cannot write to standard output ({reason}); what was printed "
                                "is cut short").format(reason=system_reason(exc))) from None


def _guard_output() -> None:
    """Standard output written through ``_GuardedOutput``, as Python had set it up (its
    encoding, line buffering on a terminal, escapes for what the encoding cannot show)."""
    stream = sys.stdout
    if not isinstance(stream, io.TextIOWrapper):
        return
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        return
    stream.flush()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_GuardedOutput(fd)), encoding=stream.encoding,
                                  errors="backslashreplace", line_buffering=stream.line_buffering)


def _stop(message: str) -> None:
    """End with ``message`` as one line on standard error (if it is open) and exit status 1."""
    try:
        os.write(2, f"Error: {message}\n".encode("utf-8", "backslashreplace"))
    except OSError:
        pass
    from .exits import ExitStatus

    raise SystemExit(ExitStatus.ERROR)
