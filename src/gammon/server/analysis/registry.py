"""Which analyser judges which variant: a registry keyed by variant name.

The site analyses a match with the :class:`Analyser` registered for its variant.  An
analyser is a function from a match record, a level and a progress callback to the
analysis as JSON-ready data (``MatchAnalysis.to_dict()``, docs/analysis.md), plus the
variants it judges and how to tell whether this installation has it.  bgsage's analysis
(:mod:`gammon.bots.analysis`) is registered for the games on the backgammon board, the
trained nets' (:mod:`gammon.bots.analysis.variants`) for every variant that ships a net
(:func:`gammon.bots.nets.has_net`: plakoto, fevga, long nardy, jacquet and acey-deucey
today; a net added later is picked up with no change here), and a tavli match (portes, plakoto, fevga in turn) is
judged game by game, by bgsage or the nets, a game no engine judges being shown as not
analysed.  Another engine plugs in with :func:`register`, and every page and API picks
it up: the analysis page shows "analysis is not available for X" only where
:func:`analyser_for` finds none.

The registry is read in the analysis worker too (a spawned process imports this module),
so an analyser's ``run`` must be a module-level function.

>>> analyser_for("tavla").name if analysis_available() else "bgsage"
'bgsage'
>>> analyser_for("plakoto").name if nets_available() else "nets"
'nets'
>>> analyser_for("acey-deucey").name if nets_available() else "nets"
'nets'
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
from gammon.variants import ROTATIONS, VARIANTS

__all__ = [
    "ANALYSIS_LEVELS",
    "Analyser",
    "ProgressFn",
    "analyser_for",
    "analysers",
    "analysis_available",
    "has_net",
    "nets_available",
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
        if variant not in VARIANTS and variant not in ROTATIONS:
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


# ---------------------------------------------------------------------- the nets


def nets_available() -> bool:
    """Whether the variant nets can run here (numpy, from the ``bot`` extra)."""
    try:
        return importlib.util.find_spec("numpy") is not None
    except ImportError:  # pragma: no cover - a broken installation
        return False


def has_net(variant: str) -> bool:
    """Whether a trained net ships for ``variant`` (False without numpy)."""
    if not nets_available():
        return False
    from gammon.bots.nets import has_net as shipped

    return shipped(variant)


#: The worker's net analyzer (keeps its rankings between matches).
_NET_ANALYZERS: list[Any] = []


def _net_analyzer() -> Any:
    if not _NET_ANALYZERS:
        from gammon.bots.analysis.variants import NetAnalyzer

        _NET_ANALYZERS.append(NetAnalyzer())
    return _NET_ANALYZERS[0]


def _nets(record: MatchRecord, level: str, progress: ProgressFn) -> dict[str, Any]:
    """A match of a variant with a net, judged by it (1 ply at every level)."""
    data: dict[str, Any] = _net_analyzer().analyse(record, progress).to_dict()
    return data


def _by_game(record: MatchRecord, level: str, progress: ProgressFn) -> dict[str, Any]:
    """A tavli match, game by game: the nets where a game's variant has one, bgsage on the
    backgammon board, else the game is not analysed."""
    from gammon.bots.analysis.variants import analyse_by_game

    def bgsage_takes(variant: str) -> bool:
        return VARIANTS[variant].standard_geometry and _bgsage_installed()

    def bgsage_games(rec: MatchRecord, games: frozenset[int], report: ProgressFn) -> Any:
        from gammon.bots.analysis import Analyzer

        analyzer = _ANALYZERS.get(level)
        if analyzer is None:
            analyzer = _ANALYZERS[level] = Analyzer(level, threads=1)  # type: ignore[arg-type]
        return analyzer.analyse(rec, report, games=games)

    def net_games(rec: MatchRecord, games: frozenset[int], report: ProgressFn) -> Any:
        return _net_analyzer().analyse(rec, report, games=games)

    judges = {"net": (has_net, net_games), "bgsage": (bgsage_takes, bgsage_games)}
    data: dict[str, Any] = analyse_by_game(record, judges, progress).to_dict()
    return data


register(
    Analyser(
        "nets",
        frozenset(name for name in VARIANTS if has_net(name)),
        nets_available,
        _nets,
    )
)
register(
    Analyser(
        "by game",
        frozenset(name for name, games in ROTATIONS.items() if any(map(has_net, games))),
        nets_available,
        _by_game,
    )
)
