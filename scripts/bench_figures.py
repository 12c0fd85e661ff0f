"""The figures of the benchmark scripts (``bench.py``, ``bench_engines.py``, ``bench_club.py``):
each the median of several runs with the smallest and largest beside it and its target, and
the table that prints them, each beside its target (met / not met)."""

import statistics

from tabulate import tabulate


def summary(values, unit, target=None):
    """Median, min and max of ``values``, with their unit and the target to meet."""
    return {
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "runs": len(values),
        "unit": unit,
        "target": target,
    }


def met(figure):
    """'yes' or 'no' for the figure's median against its target; '' without a target."""
    target = figure["target"]
    if target is None:
        return ""
    if "error" in figure:
        return "not measured"
    return "met" if (figure["median"] >= target if _higher(figure) else figure["median"] <= target) else "not met"


def _higher(figure):
    """Whether the figure's target is a floor (a rate, a speed-up) rather than a ceiling."""
    unit = figure["unit"]
    return figure.get("higher", False) or unit.endswith("/s") or unit.endswith("faster")


def table(results):
    """The figures of ``results`` ({name: figure}) as a table, each beside its target."""
    rows = []
    for name, figure in results.items():
        if "error" in figure:
            rows.append([name, "n/a", "", "", "", "", f"{met(figure)}: {figure['error']}".lstrip(": ")])
            continue
        target = figure["target"]
        bound = "" if target is None else f"{'>=' if _higher(figure) else '<='} {target:g}"
        rows.append(
            [name]
            + [f"{figure[k]:.3g}" for k in ("median", "min", "max")]
            + [figure["unit"], bound, met(figure)]
        )
    return tabulate(rows, headers=["measure", "median", "min", "max", "unit", "target", "met"])
