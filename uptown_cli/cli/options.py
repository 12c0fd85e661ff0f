"""The options the commands share, each declared once (FILE, ``--as``, ``--json`` and
``--format``, ``-o`` and ``--force``, ``--playouts``, ``--cluster``, ``--keys``, colours), with
their checks and shell completion.  How commands read their records is ``loading``; how they
print and write files is ``output``."""

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..engine.game import COLORS, VARIANTS
from ..errors import display_path
from .loading import game_path
from .output import FORCE
from ..i18n import _

__all__: list[str] = []

F = TypeVar("F", bound=Callable[..., Any])
"""A command function: the option decorators give it back with its type."""


class WordChoice(click.Choice):  # type: ignore[type-arg]
    """A choice among words that people read in their language (colours, variants, bots):
    shown in the language in use (the catalog's ``context``: ``rojo``, ``Bloqueadores``) and
    accepted in it as in English, accents and case aside (``--rack rojo``, ``--variant
    bloqueadores``, ``--rack red``); the command is given the English word."""

    def __init__(self, words: "tuple[str, ...] | list[str]", context: str) -> None:
        super().__init__(words, case_sensitive=False)
        self.context = context

    def shown(self, word: str) -> str:
        """``word`` as people of the language in use read it."""
        from ..i18n import pgettext

        return pgettext(self.context, word)

    def normalize_choice(self, choice: object, ctx: click.Context | None) -> str:
        return self.shown(str(choice)).lower()

    def word(self, value: str) -> str | None:
        """The English word that ``value`` names, in English or in the language in use; None
        when it names none."""
        from ..pictures.tile_names import fold

        folded = fold(value)
        return next((str(word) for word in self.choices
                     if folded in (fold(str(word)), fold(self.shown(str(word))))), None)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return self.word(str(value)) or super().convert(value, param, ctx)  # click's refusal


SHOWN_WORDS = [("colour output", word) for word in ("auto", "always", "never")]
"""(context, word) of the words of WordChoice options that no other table holds (the
colours' and variants' are ``pictures.tile_names``'): scripts/catalogs.py adds them."""
COLOR_CHOICE = WordChoice(COLORS, "colour")
"""A colour, as ``--rack`` takes it: ``red``, ``rojo``."""
VARIANT_CHOICE = WordChoice(VARIANTS, "variant")
"""A variant, as ``--variant`` takes it: ``blockers``, ``bloqueadores``."""

_FILE = click.Path(readable=False)
"""FILE's type (one for every command: click looks up a translation for each one made)."""


def file_argument(command: F) -> F:
    """``[FILE]``, given to the command as ``file`` (completed with records: ``completed_files``)."""
    return click.argument("file", required=False, metavar="[FILE]", type=_FILE,
                          shell_complete=complete_file)(command)


def _table_formats() -> list[str]:
    from tabulate import tabulate_formats

    return ["csv", *tabulate_formats]


def _check_format(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if value in ("simple", "csv"):  # the default, checked without importing tabulate
        return value
    if value not in _table_formats():
        import difflib

        near = difflib.get_close_matches(value, _table_formats(), n=1)
        hint = f"did you mean {near[0]!r}?" if near else "try plain, grid or csv"
        raise click.BadParameter(_("{value!r}: {hint}").format(value=value, hint=hint))
    return value


def json_option(command: F) -> F:
    """``--json``, given to the command as ``as_json``."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(command)


def output_options(command: F) -> F:
    """``--json`` and ``--format FMT``, given to the command as ``as_json`` and ``table_format``
    (see ``Output``)."""
    command = click.option(
        "--format", "table_format", default="simple", show_default=True, callback=_check_format,
        metavar="FMT", help="Table format: csv or any tabulate format (plain, github, tsv, ...).",
    )(command)
    return json_option(command)


def completed_files(incomplete: str) -> list[str]:
    """Shell completion of FILE: the records (``*.yaml``, ``*.yml``) and folders whose path
    begins with ``incomplete``."""
    folder, _, start = incomplete.rpartition("/")
    try:
        names = sorted(os.listdir(folder or "."))
    except OSError:
        return []
    found = []
    for name in names:
        path = f"{folder}/{name}" if folder else name
        if not name.startswith(start) or (name.startswith(".") and not start.startswith(".")):
            continue
        if os.path.isdir(path):
            found.append(path + "/")
        elif name.lower().endswith((".yaml", ".yml")):
            found.append(path)
    return found


def complete_file(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of FILE (``completed_files``)."""
    return completed_files(incomplete)


def complete_player(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion after ``--as``: the names of the players of FILE (the command's FILE,
    else the first word of ``move`` that names a record, else the default game) that begin
    as ``incomplete`` does, compared as records compare names (``engine.game.name_key``).
    Names are offered as they are written in the record."""
    from ..engine.game import name_key
    from ..records.reading import load_record

    given = [ctx.params.get("file") or "", *(ctx.params.get("words") or ()), *ctx.args]
    path = next((word for word in given if word.lower().endswith((".yaml", ".yml"))
                 or os.path.isfile(word)), game_path(None))  # ctx.args: what a bare --as left
    try:
        names = [player.name for player in load_record(path).players]
    except (OSError, ValueError):  # every UptownError is a ValueError
        return []
    return [name for name in names if name_key(name).startswith(name_key(incomplete))]


def as_option(required: bool = False) -> Callable[[F], F]:
    """``--as NAME``, given to the command as ``as_name``: the player who runs the command
    (completed with the players' names: ``complete_player``)."""
    return click.option("--as", "as_name", required=required, metavar="NAME",
                        shell_complete=complete_player,
                        help="The player you are (with hidden racks, your key file proves it).")


BOT_NAMES = ("random", "greedy", "mc", "horizon", "vista")
"""``analysis.bots.BOT_NAMES``: named here, checked equal by a test, so that ``--help`` imports
no bots (tests/cli/test_main.py)."""
PLAYOUT_BOTS = ("mc", "horizon", "vista")
"""``analysis.bots.PLAYOUT_BOTS``, the bots that play moves out and take ``--playouts``: named
here, checked equal by a test, as ``BOT_NAMES``."""
MC_PLAYOUTS = 16
"""``analysis.bots.MC_PLAYOUTS``: how many deals mc plays each candidate in, by default."""


def bot_list(ctx: click.Context, param: click.Parameter, value: str | None) -> list[str] | None:
    """A callback for an option of bots, ``A,B,...``: their names, each a known bot (a usage
    error names the first that is not); None when the option is not given."""
    if value is None:
        return None
    from ..analysis.selfplay import check_bots
    from .exits import converted

    bots = [name.strip() for name in value.split(",") if name.strip()]
    with converted(usage=True):
        check_bots(bots)
    return bots


def playouts_option(default: int | None = None) -> Callable[[F], F]:
    """``--playouts N``, given to the command as ``playouts``."""
    return click.option(
        "--playouts", type=click.IntRange(min=1), metavar="N", default=default,
        show_default=default is not None,
        help=f"{', '.join(PLAYOUT_BOTS)}: how many sampled deals each candidate move is played "
        "out in.")


def cluster_option(command: F) -> F:
    """``--cluster ADDRESS``, given to the command as ``cluster`` (``analysis.cluster``)."""
    return click.option(
        "--cluster", metavar="ADDRESS",
        help="Work on the Dask scheduler at ADDRESS (tcp://HOST:8786), or on 'local:N' workers "
             "started here; the output is that of --jobs (pip install 'uptown[cluster]').")(command)


def check_jobs_or_cluster(cluster: str | None) -> None:
    """A UsageError for ``--jobs`` given with ``--cluster``: the cluster's workers share out
    the work, so a number of processes here would be ignored."""
    ctx = click.get_current_context()
    if cluster is not None and ctx.get_parameter_source("jobs") is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError(_("give --jobs or --cluster, not both (the cluster's workers "
                                 "share out the work)"))


def check_playouts(playouts: int | None, bot: str | None) -> None:
    """A UsageError for ``--playouts`` with a bot that plays nothing out."""
    if playouts and bot not in PLAYOUT_BOTS:
        raise click.UsageError(
            _("--playouts goes with {value}")
            .format(value=' or '.join(f'--bot {b}' for b in PLAYOUT_BOTS)))


def keys_option(command: F) -> F:
    """``--keys DIR``: where a player's key files are, for games with hidden racks."""
    return click.option(
        "--keys", metavar="DIR",
        help="Folder of your key files, for games with hidden racks (default: $UPTOWN_KEYS, "
        "else the uptown/keys folder in your config folder).",
    )(command)


def sendmail_option(command: F) -> F:
    """``--sendmail``, for ``send`` and ``move --send``."""
    return click.option("--sendmail", is_flag=True,
                        help="Hand the message to the local sendmail program instead of "
                        "$UPTOWN_SMTP.")(command)


def color_options(command: F) -> F:
    """``--color auto|always|never`` (and ``--no-color``), given as ``color`` and ``no_color``."""
    command = click.option(
        "--no-color", is_flag=True, help="The same as --color never.",
    )(command)
    return click.option(
        "--color", "color", type=WordChoice(["auto", "always", "never"], "colour output"),
        default="auto",
        show_default=True,
        help="ANSI colour: auto is on a terminal unless NO_COLOR is set (FORCE_COLOR forces it).",
    )(command)


def output_file_option(example: str) -> Callable[[F], F]:
    """``-o/--output FILE``: where a command that makes a file writes it (standard output by
    default), and ``--force``. Every ``-o`` follows one rule: a file that exists is refused
    unless ``--force`` is given, and that is checked as the options are read, before any work
    (``write_output`` then replaces the file whole)."""

    def remember_force(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
        ctx.meta[FORCE] = value
        return value

    def check_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value not in (None, "-") and os.path.lexists(value) and not ctx.meta.get(FORCE):
            raise click.ClickException(_("-o {path} exists; add --force to replace it (nothing "
                                         "was done)").format(path=display_path(value)))
        return value

    def decorate(command: F) -> F:
        command = click.option("-o", "--output", metavar="FILE", callback=check_output,
                               help=f"Write to FILE (e.g. {example}) instead of standard output; "
                                    "an existing FILE only with --force.")(command)
        return click.option("--force", is_flag=True, is_eager=True, expose_value=False,
                            callback=remember_force, help="Replace the -o FILE if it exists.")(command)

    return decorate


