"""``gammon analyse FILE``: analyse a match from an action log or a ``.mat`` file.

The command replays the match, judges every checker play and cube decision at
the chosen level (:mod:`gammon.bots.analysis`) and prints a report: per game
the marked decisions and the players' error rates and luck, then the match
totals and the biggest errors with the better play.  ``--json`` prints the
analysis for the site instead (schema: ``docs/analysis.md``).  A progress bar
goes to standard error.

Wire it into a command line with :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from gammon.bots.analysis.analyzer import analyse_match, can_analyse
from gammon.bots.analysis.model import (
    BLUNDER,
    CLOSE_CUBE,
    DOUBTFUL,
    ERROR,
    Decision,
    GameAnalysis,
    MatchAnalysis,
    PlayerStats,
    Progress,
)
from gammon.bots.analysis.variants import analyse_with_nets, can_analyse_with_net, refusal
from gammon.bots.bot import LEVELS
from gammon.errors import GammonError
from gammon.match.formats import mat_to_record, sgf_to_record, xg_to_record
from gammon.match.record import MatchRecord, read_log

__all__ = ["NOT_ANALYSABLE", "add_arguments", "format_report", "load_record", "run"]

#: The exit status of ``gammon analyse`` for a match of a variant it cannot judge
#: (0: analysed; 2: an unreadable file or a bad argument, as every gammon command).
NOT_ANALYSABLE: Final = 3

_LOG_SUFFIXES: Final = (".jsonl", ".log", ".json")
_MAT_SUFFIXES: Final = (".mat", ".txt")
_STAGES: Final = {
    "cube": "cube decisions",
    "moves": "moves of every roll (1-ply)",
    "deep": "best moves again ({plies}-ply)",
}
_MARK_TEXT: Final = {"none": "", "doubtful": "?!", "error": "?", "blunder": "??"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``gammon analyse``."""
    parser.add_argument(
        "file", metavar="FILE", help="an action log (.jsonl, .log) or a .mat match file"
    )
    parser.add_argument(
        "--level",
        choices=LEVELS,
        default="expert",
        help=(
            "judge as the bot of this level: expert and below at 1-ply, world-class "
            "with the world-class bot's deeper search (3-ply), grandmaster with its "
            "final depth (4-ply: minutes; Ctrl-C stops it and says how far it got) "
            "(default expert)"
        ),
    )
    parser.add_argument(
        "--plies",
        type=int,
        choices=(1, 2, 3, 4),
        default=None,
        help="override the depth of the level (2 = XG's 2-ply); luck is always 1-ply",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the analysis as JSON (docs/analysis.md)"
    )
    parser.add_argument("--out", metavar="PATH", help="write the report or JSON to PATH")
    parser.add_argument(
        "--top", type=int, default=10, metavar="N", help="list the N biggest errors (default 10)"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=0,
        metavar="N",
        help="C++ threads of the engine (default 0: every core)",
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar on standard error"
    )


def load_record(path: str | Path) -> MatchRecord:
    """A match record from an action log, a ``.mat``, an SGF or an ``.xg`` file (by suffix, else
    by content).

    Raises :class:`GammonError` for a file that cannot be read or parsed.
    """
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise GammonError(f"cannot read {file}: {exc.strerror}") from None
    if file.suffix.lower() == ".xg" or raw[:4] == b"RGMH":
        return xg_to_record(raw)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # older .mat exports
    suffix = file.suffix.lower()
    if suffix in _LOG_SUFFIXES:
        return read_log(text)
    if suffix == ".sgf" or text.lstrip().startswith("(;"):
        return sgf_to_record(text)
    if suffix in _MAT_SUFFIXES or not text.lstrip().startswith("{"):
        return mat_to_record(text)
    return read_log(text)


@contextmanager
def _ctrl_c() -> Iterator[threading.Event]:
    """Ctrl-C (SIGINT) sets the event, which the analysis's progress report turns into
    :class:`KeyboardInterrupt` at its next step (a second Ctrl-C raises it at once).  Python
    raises the interrupt wherever the main thread happens to be, and where that is a
    finaliser or a callback it is printed and lost: the analysis would run on."""
    stopped = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stopped  # signals reach the main thread only
        return

    def on_sigint(signum: int, frame: object) -> None:
        if stopped.is_set():
            raise KeyboardInterrupt
        stopped.set()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield stopped
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _progress_bar(enabled: bool, plies: int | None) -> Iterator[Progress | None]:
    """A rich progress bar on standard error, one task per stage of the analysis."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    tasks: dict[str, Any] = {}

    def report(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            label = _STAGES.get(stage, stage).format(plies=plies or "deep")
            tasks[stage] = bar.add_task(label, total=total)
        bar.update(tasks[stage], completed=done, total=total)

    with bar:
        yield report


def _stage_line(stage: str, done: int, total: int, plies: int | None = None) -> str:
    """One stage's progress, as the cancel message lists it.

    >>> _stage_line("deep", 12, 150), _stage_line("deep", 1, 2, 4)
    ('best moves again: 12 of 150', 'best moves again (4-ply): 1 of 2')
    """
    label = _STAGES.get(stage, stage)
    label = label.format(plies=plies) if plies else label.replace(" ({plies}-ply)", "")
    return f"{label}: {done} of {total}"


def run(args: argparse.Namespace) -> int:
    """Run ``gammon analyse`` with parsed arguments; returns the exit status: 0, 130 when
    Ctrl-C cancels it (what was done is printed to standard error), or
    :data:`NOT_ANALYSABLE` (3) for a variant the analysis cannot judge (said on standard
    error in words, with the variants it can)."""
    record = load_record(args.file)
    variant = record.options.variant
    with_nets = not can_analyse(variant) and can_analyse_with_net(variant)
    if not can_analyse(variant) and not with_nets:
        sys.stderr.write(f"gammon analyse: {refusal(variant)}.\n")
        return NOT_ANALYSABLE
    reached: dict[str, tuple[int, int]] = {}
    try:
        with _progress_bar(not args.no_progress, args.plies) as bar, _ctrl_c() as stopped:

            def progress(stage: str, done: int, total: int) -> None:
                reached[stage] = (done, total)
                if bar is not None:
                    bar(stage, done, total)
                if stopped.is_set():
                    raise KeyboardInterrupt

            analyse = analyse_with_nets if with_nets else analyse_match
            analysis = analyse(
                record, args.level, plies=args.plies, threads=args.threads, progress=progress
            )
    except KeyboardInterrupt:
        done = "; ".join(_stage_line(s, d, t, args.plies) for s, (d, t) in reached.items())
        done = done or "nothing"
        sys.stderr.write(f"analysis cancelled at {args.level}: {done}\n")
        return 130
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise GammonError(
            f"gammon analyse needs the bot extra (pip install 'gammon[bot]'): {exc}"
        ) from None
    if args.json:
        text = json.dumps(_rounded(analysis.to_dict()), indent=1)
    else:
        text = format_report(analysis, top=args.top)
    if args.out:
        try:
            Path(args.out).write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            raise GammonError(f"cannot write {args.out}: {exc.strerror}") from None
    else:
        sys.stdout.write(text + "\n")
    return 0


def _rounded(value: Any) -> Any:
    """JSON data with floats rounded to 6 decimals (the engines are not more precise)."""
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(v) for v in value]
    return value


# ---------------------------------------------------------------------- the text report


def _title(analysis: MatchAnalysis) -> str:
    a, b = analysis.players
    kind = f"{analysis.match_length}-point match" if analysis.match_length else "money session"
    variant = "" if analysis.variant == "standard" else f", {analysis.variant}"
    if analysis.engine == "net":
        how = f"judged by the {analysis.variant} net (1-ply; luck at 1-ply)"
    elif analysis.engine == "mixed":
        how = (
            f"game by game: the variant nets (1-ply) and bgsage at {analysis.level} "
            f"({analysis.plies}-ply); luck at 1-ply"
        )
    else:
        how = f"{analysis.level} ({analysis.plies}-ply; luck at {analysis.luck_plies}-ply)"
    return f"Analysis of {a} - {b}, {kind}{variant}: {how}"


def _when(d: Decision) -> str:
    return f"move {d.ply + 1}" if d.kind == "checker" else f"before move {d.ply + 1}"


def _decision_line(d: Decision, names: tuple[str, str]) -> str:
    dice = d.dice or "--"
    better = "" if d.best == d.played else d.best
    return (
        f"  {d.ply + 1:>4}  {names[d.player][:10]:<10} {dice:<3} {d.played:<22} "
        f"{better:<22} {-d.error:+.3f} {d.mark}{_MARK_TEXT[d.mark]}"
    )


def _stats_line(p: PlayerStats, net: bool = False) -> str:
    if net:  # no cube, and equities are the net's points per game
        return (
            f"  {p.name}: net PR {p.pr:.1f} (error rate {p.error_rate:.1f} "
            f"thousandths of a point per move over {p.decisions} moves); {p.doubtful} doubtful, "
            f"{p.errors} errors, {p.blunders} blunders; luck {p.luck:+.3f} over {p.rolls} rolls"
        )
    return (
        f"  {p.name}: PR {p.pr:.1f} (error rate {p.error_rate:.1f} mEMG over {p.decisions} "
        f"decisions: checker {p.checker_rate:.1f} on {p.checker_decisions}, cube "
        f"{p.cube_rate:.1f} on {p.cube_decisions}); {p.doubtful} doubtful, {p.errors} errors, "
        f"{p.blunders} blunders; luck {p.luck:+.3f} over {p.rolls} rolls"
    )


def _luck_adjusted_lines(analysis: MatchAnalysis) -> list[str]:
    """Each player's result as played and luck-adjusted, over the finished games."""
    if not analysis.luck_adjusted or not analysis.luck_adjusted[0].games:
        return []
    games = analysis.luck_adjusted[0].games
    plural = "s" if games != 1 else ""
    if analysis.match_length and analysis.luck_unit == "match":
        lines = [f"Luck-adjusted result (match winning chance, {games} finished game{plural}):"]
        for a in analysis.luck_adjusted:
            lines.append(
                f"  {analysis.players[a.player]}: {100 * a.adjusted:+.1f}% "
                f"(as played {100 * a.result:+.1f}%, luck {100 * a.luck:+.1f}%)"
            )
        return lines
    lines = [f"Luck-adjusted result (points, {games} finished game{plural}):"]
    for a in analysis.luck_adjusted:
        lines.append(
            f"  {analysis.players[a.player]}: {a.adjusted:+.3f} = {a.adjusted / games:+.3f} per game "
            f"(as played {a.result:+.0f}, luck {a.luck:+.3f})"
        )
    return lines


def _game_section(g: GameAnalysis, names: tuple[str, str], mixed: bool = False) -> list[str]:
    if g.winner is None:
        result = "unfinished"
    else:
        result = f"{names[g.winner]} wins {g.points} point{'s' if g.points != 1 else ''}"
    crawford = " (Crawford game)" if g.crawford else ""
    variant = f" ({g.variant})" if mixed else ""
    lines = [
        f"Game {g.number}{variant}: {names[0]} {g.score[0]}, {names[1]} {g.score[1]}{crawford}"
        f" - {result}"
    ]
    if g.engine is None:
        return [*lines, f"  not analysed: no engine here judges {g.variant}"]
    marked = [d for d in g.decisions if d.mark != "none"]
    if marked:
        lines.append(
            f"  {'move':>4}  {'player':<10} {'dice':<3} {'played':<22} {'better':<22} {'equity':>6}"
        )
        lines += [_decision_line(d, names) for d in marked]
    else:
        lines.append("  no doubtful decision")
    lines += [_stats_line(p, g.engine == "net") for p in g.players]
    return lines


def _worst_lines(analysis: MatchAnalysis, top: int) -> list[str]:
    worst = analysis.worst(top)
    if not worst:
        return ["No decision lost equity."]
    lines = [f"The {len(worst)} biggest errors:"]
    for n, d in enumerate(worst, start=1):
        who = analysis.players[d.player]
        dice = f" with {d.dice}" if d.dice else ""
        lines.append(
            f"  {n:>2}. game {d.game}, {_when(d)}, {who}{dice}: {d.played} "
            f"({d.equity_played:+.3f}); better {d.best} ({d.equity_best:+.3f}): "
            f"{-d.error:+.3f} {d.mark}"
        )
        lines.append(f"      {d.xgid or f'{d.position_id} (Position ID)'}")
        if d.kind == "checker":
            for c in d.candidates[:3]:
                lines.append(
                    f"        {c.move:<24} {c.equity:+.3f}  (win {100 * c.win:.1f}%, {c.plies}-ply)"
                )
        elif d.cube is not None:
            cube = d.cube
            beaver = (
                "" if cube.double_beaver is None else f", double/beaver {cube.double_beaver:+.3f}"
            )
            lines.append(
                f"        no double {cube.no_double:+.3f}, double/take {cube.double_take:+.3f}, "
                f"double/pass {cube.double_pass:+.3f}{beaver}: {cube.action} "
                f"(doubler's view, win {100 * cube.win:.1f}%)"
            )
    return lines


def format_report(analysis: MatchAnalysis, *, top: int = 10) -> str:
    """The readable report of an analysis."""
    names = analysis.players
    lines = [_title(analysis), ""]
    mixed = analysis.engine == "mixed"
    for g in analysis.games:
        lines += _game_section(g, names, mixed)
        lines.append("")
    lines.append("Match totals:")
    lines += [_stats_line(p, analysis.engine != "bgsage") for p in analysis.totals]
    lines.append("")
    adjusted = _luck_adjusted_lines(analysis)
    if adjusted:
        lines += [*adjusted, ""]
    lines += _worst_lines(analysis, top)
    if analysis.engine != "bgsage":
        lines += [
            "",
            f"Marks: doubtful (?!) >= {DOUBTFUL}, error (?) >= {ERROR}, blunder (??) >= "
            f"{BLUNDER} of equity (the net's expected points per game, gammons counting 2; "
            "bgsage's normalised equity on the backgammon board).",
            "Net PR = 500 x mean error over the moves with a choice, as backgammon's PR but "
            "judged by the variant's net: compare it between players of the same variant only.",
        ]
        return "\n".join(lines)
    lines += [
        "",
        f"Marks: doubtful (?!) >= {DOUBTFUL}, error (?) >= {ERROR}, blunder (??) >= {BLUNDER} "
        "of normalised equity (money points per cube, EMG in a match).",
        "PR = 500 x mean error, error rate = 1000 x mean error, over the checker plays with a "
        f"choice, doubles, answers and no-doubles within {CLOSE_CUBE} of doubling.",
    ]
    return "\n".join(lines)
