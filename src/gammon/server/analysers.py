"""Which analyser judges which variant: a registry keyed by variant name.

The site analyses a match with the :class:`Analyser` registered for its variant.  An
analyser is a function from a match record, a level and a progress callback to the
analysis as JSON-ready data (``MatchAnalysis.to_dict()``, docs/analysis.md), plus the
variants it judges and how to tell whether this installation has it.  bgsage's analysis
(:mod:`gammon.bots.analysis`) is registered for the games on the backgammon board; a
variant family with an engine of its own (the track variants, once they have neural
networks) plugs in with :func:`register`, in a module imported at the end of this one, and
every page and API picks it up: the analysis page shows "analysis is not available for X"
only where :func:`analyser_for` finds none.

The registry is read in the analysis worker too (a spawned process imports this module),
so an analyser's ``run`` must be a module-level function.

>>> analyser_for("tavla").name if analysis_available() else "bgsage"
'bgsage'
>>> analyser_for("plakoto") is None
True
>>> register(Analyser("other", frozenset({"standard"}), lambda: True, _bgsage))
Traceback (most recent call last):
...
ValueError: standard already has an analyser (bgsage)
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from gammon.match.record import MatchRecord
from gammon.variants import VARIANTS

__all__ = [
    "ANALYSIS_LEVELS",
    "Analyser",
    "ProgressFn",
    "analyser_for",
    "analysers",
    "analysis_available",
    "register",
]

#: The levels the site analyses at (the weaker levels judge like expert).
ANALYSIS_LEVELS: Final = ("expert", "world-class")

#: ``progress(stage, done, total)``: the stages of an analysis as they advance.
ProgressFn = Callable[[str, int, int], None]


@dataclass(frozen=True, slots=True)
class Analyser:
    """An analysis engine: ``run(record, level, progress)`` gives the analysis as JSON-ready
    data for the ``variants`` it judges, when ``available()`` (its package is installed)."""

    name: str
    variants: frozenset[str]
    available: Callable[[], bool]
    run: Callable[[MatchRecord, str, ProgressFn], dict[str, Any]]


_REGISTRY: dict[str, Analyser] = {}


def register(analyser: Analyser) -> None:
    """Register an analyser for its variants (each variant has at most one)."""
    for variant in sorted(analyser.variants):
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}")
        taken = _REGISTRY.get(variant)
        if taken is not None and taken is not analyser:
            raise ValueError(f"{variant} already has an analyser ({taken.name})")
    for variant in analyser.variants:
        _REGISTRY[variant] = analyser


def analyser_for(variant: str) -> Analyser | None:
    """The analyser of ``variant`` if one is registered and installed, else ``None``."""
    found = _REGISTRY.get(variant)
    return found if found is not None and found.available() else None


def analysers() -> dict[str, str]:
    """Every variant with a registered analyser, and its name (installed or not)."""
    return {variant: a.name for variant, a in sorted(_REGISTRY.items())}


def analysis_available() -> bool:
    """Whether this installation can analyse a standard backgammon match (the ``bot`` extra)."""
    return analyser_for("standard") is not None


# ---------------------------------------------------------------------- bgsage


def _bgsage_installed() -> bool:
    try:
        return (
            importlib.util.find_spec("bgsage") is not None
            and importlib.util.find_spec("gammon.bots.analysis") is not None
        )
    except ImportError:  # pragma: no cover - a broken installation
        return False


#: The worker's analysers by level (built once: loading the networks takes a while).
_ANALYZERS: dict[str, Any] = {}


def _bgsage(record: MatchRecord, level: str, progress: ProgressFn) -> dict[str, Any]:
    from gammon.bots.analysis import Analyzer

    analyzer = _ANALYZERS.get(level)
    if analyzer is None:
        analyzer = _ANALYZERS[level] = Analyzer(level, threads=1)  # type: ignore[arg-type]
    data: dict[str, Any] = analyzer.analyse(record, progress).to_dict()
    return data


register(
    Analyser(
        "bgsage",
        frozenset(name for name, v in VARIANTS.items() if v.standard_geometry),
        _bgsage_installed,
        _bgsage,
    )
)
