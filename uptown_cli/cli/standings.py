"""What ``uptown tournament`` prints of its standings: the table of entrants (or ``--json``),
each pairing's score lines and the SPRT's line as cutechess prints them (in English and with
a decimal point, as cutechess does, for the scripts that read its output), and the same lines
on standard error every ``--rating-interval`` games."""

from typing import TYPE_CHECKING, Any

from ..errors import display_path
from ..i18n import _ as gettext, ngettext
from ..i18n import figures as decimals
from .output import Output

if TYPE_CHECKING:
    from ..analysis.rating import Pairing
    from ..analysis.tournament import Tournament

__all__: list[str] = []


def pairing_lines(pairing: "Pairing") -> list[str]:
    """cutechess's two lines for a pairing: ``Score of A vs B: W - L - D  [score] N`` and
    ``Elo difference: E +/- M, LOS: P %, DrawRatio: R %`` (``+inf``, ``-inf``, ``inf`` where
    a figure is out of reach)."""
    if not pairing.games:
        return []
    return [f"Score of {pairing.first} vs {pairing.second}: {pairing.wins} - {pairing.losses} - "
            f"{pairing.draws}  [{pairing.score:.3f}] {pairing.games}",
            f"Elo difference: {_elo(pairing.elo, pairing.score)} +/- {_number(pairing.elo_error)}, "
            f"LOS: {100 * pairing.los:.1f} %, DrawRatio: {100 * (pairing.draw_ratio or 0):.1f} %"]


def sprt_lines(run: "Tournament") -> list[str]:
    """cutechess's SPRT line (``SPRT: llr L (P%), lbound A, ubound B``, and which hypothesis
    was accepted), then the counts of the deals it stands on (with two seats fastchess's
    ``Ptnml(0-2)``, the deal pairs scored 0 to 2)."""
    test = run.settings.sprt
    if test is None:
        return []
    llr, (lower, upper), decided = run.llr(), test.bounds(), run.decided()
    line = (f"SPRT: llr {llr:.3g} ({100 * llr / upper:.1f}%), lbound {lower:.3g}, "
            f"ubound {upper:.3g}") + ("" if decided is None else f" - {decided} was accepted")
    counts = ", ".join(map(str, run.deals.counts))
    if run.settings.seats == 2:
        return [line, f"Ptnml(0-2): [{counts}]"]
    return [line, f"Deal scores (0-{(len(run.deals.counts) - 1) / 2:g}): [{counts}]"]


def standings_lines(run: "Tournament") -> list[str]:
    """The lines printed every ``--rating-interval`` games: the games played so far, each
    pairing's score lines and the SPRT's."""
    from ..analysis.rating import pairings

    lines = [ngettext("Standings after {count} game:", "Standings after {count} games:",
                      len(run.results)).format(count=len(run.results))]
    for pairing in pairings(run.results, run.settings.pairs()):
        lines += pairing_lines(pairing)
    return lines + sprt_lines(run)


def print_standings(run: "Tournament", out: Output) -> None:
    """The table of entrants, the pairings and the SPRT: as text, or one JSON object."""
    from ..analysis.rating import figures, pairings

    settings = run.settings
    names = [e.name for e in settings.entrants]
    table = figures(run.results, names, settings.seats)
    matches = pairings(run.results, settings.pairs())
    total = run.games()
    sprt: dict[str, Any] | None = None
    if settings.sprt is not None:
        sprt = {**settings.sprt._asdict(), "llr": round(run.llr(), 3),
                "bounds": [round(b, 3) for b in settings.sprt.bounds()],
                "decision": run.decided(), "deals": run.deals.counts}
    if out.as_json:
        out.json({"folder": run.folder, "games": len(run.results), "scheduled": total,
                  "mode": settings.mode, "seats": settings.seats, "seed": settings.seed,
                  "variant": settings.variant, "entrants": [f.to_json() for f in table],
                  "pairings": [p.to_json() for p in matches], "sprt": sprt})
        return
    title = ngettext("{count} game of {total}, {mode}, {seats} seats, {variant}, seed {seed}; "
                     "records in {folder}",
                     "{count} games of {total}, {mode}, {seats} seats, {variant}, seed {seed}; "
                     "records in {folder}", len(run.results)).format(
        count=len(run.results), total=total, mode=settings.mode, seats=settings.seats,
        variant=settings.variant, seed=settings.seed, folder=display_path(run.folder))
    if settings.seats == 2:
        headers = [gettext("entrant"), gettext("games"), gettext("firsts"), gettext("mean\nscore"),
                   gettext("W-D-L"), "Elo", "95%\n+-", gettext("forfeits")]
        rows = [[f.name, f.games, f"{f.firsts:g}", _mean(f.mean_score), f"{f.wins}-{f.draws}-{f.losses}",
                 _elo(f.elo, f.score), _number(f.elo_error), f.forfeits] for f in table]
    else:
        headers = [gettext("entrant"), gettext("games"), gettext("firsts"), gettext("mean\nscore"),
                   "mu", "sigma", gettext("forfeits")]
        rows = [[f.name, f.games, f"{f.firsts:g}", _mean(f.mean_score), _number(f.mu, 2),
                 _number(f.sigma, 2), f.forfeits] for f in table]
    out.table(rows, headers, title=title)
    if out.for_machines:
        return
    lines = [line for pairing in matches for line in pairing_lines(pairing)]
    if lines:
        out.text()
        out.text("\n".join(lines))
    if settings.sprt is not None and sprt is not None:
        verdict = {"H1": gettext("H1 accepted: {name} is the stronger by {elo:g} Elo").format(
                       name=names[0], elo=sprt["elo1"]),
                   "H0": gettext("H0 accepted: {name} is not stronger by more than {elo:g} Elo")
                   .format(name=names[0], elo=sprt["elo0"]),
                   None: gettext("undecided")}[sprt["decision"]]
        out.text()
        out.text("\n".join(sprt_lines(run)))
        out.text(decimals(gettext("SPRT elo0={elo0:g} elo1={elo1:g} alpha={alpha:g} beta={beta:g}: "
                                  "{verdict}").format(verdict=verdict, **settings.sprt._asdict())))


def _mean(value: float | None) -> str:
    """A mean score (``-`` without a game played to its end)."""
    return "-" if value is None else f"{value:.2f}"


def _number(value: float | None, digits: int = 1) -> str:
    """A figure, ``inf`` for None (a bound out of reach)."""
    return "inf" if value is None else f"{value + 0.0:.{digits}f}"


def _elo(elo: float | None, score: float | None) -> str:
    """The Elo difference as text (``rating.elo_json``'s, a number to one decimal): ``+inf``
    or ``-inf`` when every game was won or lost, nothing before any game."""
    from ..analysis.rating import elo_json

    value = elo_json(elo, score)
    if value is None or isinstance(value, str):
        return value or ""
    return f"{value:.1f}" if round(value, 1) else "0.0"  # never -0.0
