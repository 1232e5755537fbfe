"""The ``gammon`` command.

``gammon moves``   legal moves of a position (or of lines read from standard input)
``gammon show``    draw a position
``gammon demo``    a short tour of the rules library
``gammon verify-dice``  check the dice of a finished match against its commitment
``gammon serve``   run the web site (needs the ``server`` extra)
``gammon admin``   moderators and bans, on the site's database (docs/moderation.md)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from gammon import __version__
from gammon.dice import Dice
from gammon.errors import GammonError
from gammon.position import Position
from gammon.variants import VARIANTS

__all__ = ["main"]


def _moves_lines(position: Position, dice: Dice) -> list[str]:
    return [f"{move}\t{move.position_after().position_id()}" for move in position.legal_moves(dice)]


def _moves_json(position: Position, dice: Dice) -> list[dict[str, object]]:
    result: list[dict[str, object]] = []
    for move in position.legal_moves(dice):
        after = move.position_after()
        result.append(
            {
                "move": str(move),
                "position_id": after.position_id(),
                "steps": [[s.from_point, s.to_point, s.die, s.hit] for s in move],
                "hits": move.hits,
            }
        )
    return result


def _answer_line(line: str, variant: str, as_json: bool, out: TextIO) -> None:
    """Answer one ``POSITION_ID DICE`` line with exactly one output line."""
    parts = line.split()
    try:
        if len(parts) != 2:
            raise GammonError(f"expected 'POSITION_ID DICE', got {line.strip()!r}")
        position = Position.from_position_id(parts[0], variant)
        dice = Dice.parse(parts[1])
        if as_json:
            out.write(json.dumps(_moves_json(position, dice)) + "\n")
        else:
            moves = _moves_lines(position, dice)
            out.write(("; ".join(m.replace("\t", " ") for m in moves) or "pass") + "\n")
    except GammonError as exc:
        if as_json:
            out.write(json.dumps({"error": str(exc)}) + "\n")
        else:
            out.write(f"error: {exc}\n")
    out.flush()


def cmd_moves(args: argparse.Namespace) -> int:
    if args.position_id is None:
        for line in sys.stdin:
            if line.strip():
                _answer_line(line, args.variant, args.json, sys.stdout)
        return 0
    if args.dice is None:
        raise GammonError("give both POSITION_ID and DICE, or neither to read lines from stdin")
    position = Position.from_position_id(args.position_id, args.variant)
    dice = Dice.parse(args.dice)
    if args.json:
        print(json.dumps(_moves_json(position, dice)))
        return 0
    lines = _moves_lines(position, dice)
    if not lines:
        print(f"no legal move with {dice}: the turn passes")
    for line in lines:
        print(line)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    position = Position.from_position_id(args.position_id, args.variant)
    if args.svg:
        dice = Dice.parse(args.dice) if args.dice else None
        print(position.svg(dice=(dice.d1, dice.d2) if dice else None))
        return 0
    print(position)
    print(f"Position ID: {position.position_id()}")
    if position.variant.standard_geometry:  # XGID knows only the backgammon board
        print(f"XGID:        {position.to_xgid()}")
    result = position.result()
    if result:
        print(f"Game over: the {result.winner} wins a {result.kind}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    position = Position.initial(args.variant)
    print(f"gammon {__version__}: {position.variant.title}, the opening position\n")
    print(position)
    print(f"\nPosition ID {position.position_id()}")
    dice = Dice.parse(args.dice)
    moves = position.legal_moves(dice)
    print(f"\n{len(moves)} legal moves with {dice}:")
    for move in moves:
        print(f"  {move!s:<16} -> {move.position_after().position_id()}")
    print("\nTry: gammon moves 4HPwATDgc/ABMA 31   or   gammon show 4HPwATDgc/ABMA")
    return 0


def cmd_verify_dice(args: argparse.Namespace) -> int:
    from gammon.match.actions import Roll
    from gammon.match.fairdice import DICE_SCHEME, verify_rolls
    from gammon.match.record import read_log

    try:
        with open(args.log, encoding="utf-8") as handle:
            record = read_log(handle.read())
    except OSError as exc:
        raise GammonError(f"cannot read {args.log}: {exc.strerror}") from None
    if record.dice is None:
        raise GammonError(
            f"{args.log} has no dice commitment: it was not played with verifiable dice"
        )
    if record.dice.scheme != DICE_SCHEME:
        raise GammonError(
            f"{args.log} uses the dice scheme {record.dice.scheme!r}; "
            f"this gammon verifies {DICE_SCHEME!r} only"
        )
    if record.server_seed is None:
        raise GammonError(
            f"{args.log}: the server seed is not revealed yet (the match is not over)"
        )
    rolls = [a.dice for a in record.actions if isinstance(a, Roll)]
    result = verify_rolls(
        record.dice.commitment,
        record.server_seed,
        record.dice.match_id,
        record.dice.client_seeds,
        rolls,
    )
    print(f"match {record.dice.match_id}: {len(rolls)} rolls")
    print(f"commitment {record.dice.commitment}: {'ok' if result.commitment_ok else 'MISMATCH'}")
    print(result.message)
    return 0 if result.ok else 1


def cmd_convert(args: argparse.Namespace) -> int:
    from gammon.match.formats import convert_file

    try:
        print(convert_file(args.source, args.target, strict=args.strict, warn=sys.stderr))
    except OSError as exc:
        raise GammonError(f"cannot convert {args.source}: {exc.strerror or exc}") from None
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    try:
        from gammon.bots.analysis.cli import run
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise GammonError(
            f"gammon analyse needs the bot extra (pip install 'gammon[bot]'): {exc}"
        ) from None
    return run(args)


def cmd_play(args: argparse.Namespace) -> int:
    try:
        from gammon.tui.play import run
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise GammonError(
            f"gammon play needs the bot extra (pip install 'gammon[bot]'): {exc}"
        ) from None
    return run(args)


def cmd_serve(args: argparse.Namespace) -> int:
    import logging

    from gammon.server.infra.settings import Settings

    overrides = {name: getattr(args, name) for name in _serve_fields()}
    settings = Settings.from_env(**overrides)
    try:
        from gammon.server.run import serve
    except ImportError as exc:
        raise GammonError(
            f"gammon serve needs the server extra (pip install 'gammon[server]'): {exc}"
        ) from None
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )

    def ready(address: str) -> None:
        print(f"gammon: serving on {address}", flush=True)

    return serve(settings, ready)


def _serve_fields() -> list[str]:
    from dataclasses import fields

    from gammon.server.infra.settings import Settings

    return [f.name for f in fields(Settings)]


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``gammon serve``: one flag per setting of :class:`gammon.server.infra.settings.Settings`."""
    from dataclasses import fields

    from gammon.server.infra.settings import SETTINGS_HELP, Settings, parse_setting

    p = sub.add_parser(
        "serve",
        help="run the web site",
        description=(
            "Run the gammon web site: lobby, accounts, tables, play against people and the "
            "bot, watching, fair dice. Migrates the database on start. Every flag can also "
            "be set as an environment variable GAMMON_<FLAG> (e.g. GAMMON_DATABASE_URL, "
            "GAMMON_REDIS_URL); a flag wins over the variable. Several processes can share "
            "one PostgreSQL database and one Redis. Prints 'gammon: serving on ADDRESS' "
            "once it answers. Needs the server extra (and postgres for PostgreSQL)."
        ),
    )
    defaults = Settings()
    for f in fields(Settings):
        default = getattr(defaults, f.name)
        if isinstance(default, tuple):
            default = ",".join(default) or "none"
        elif default is None:
            default = "none"
        elif isinstance(default, bool):
            default = "true" if default else "false"
        env = f"GAMMON_{f.name.upper()}"

        def convert(text: str, name: str = f.name) -> object:
            try:
                return parse_setting(name, text)
            except GammonError as exc:
                raise argparse.ArgumentTypeError(str(exc)) from None

        p.add_argument(
            "--" + f.name.replace("_", "-"),
            dest=f.name,
            type=convert,
            default=None,
            metavar=f.name.upper(),
            help=f"{SETTINGS_HELP[f.name]} (env {env}; default {default})",
        )
    p.set_defaults(func=cmd_serve)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gammon", description="Backgammon rules, notation and tools."
    )
    parser.add_argument("--version", action="version", version=f"gammon {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    variants = sorted(VARIANTS)

    p = sub.add_parser(
        "moves",
        help="list the legal moves of a position",
        description=(
            "Print the legal moves of POSITION_ID (gnubg Position ID, player on roll) with DICE "
            "(like 31), one per line with the Position ID after the move (opponent on roll). "
            "Without arguments, read 'POSITION_ID DICE' lines from standard input and answer "
            "each with one line, in order; a bad line is answered with an error and the "
            "process goes on."
        ),
    )
    p.add_argument("position_id", nargs="?", help="gnubg Position ID, e.g. 4HPwATDgc/ABMA")
    p.add_argument("dice", nargs="?", help="the roll, e.g. 31 or 6-6")
    p.add_argument("--variant", choices=variants, default="standard", help="rules variant")
    p.add_argument(
        "--json",
        action="store_true",
        help="answer with a JSON array of {move, position_id, steps, hits}; [] when no move",
    )
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser(
        "show",
        help="draw a position",
        description="Draw POSITION_ID as text, or as an SVG picture with --svg.",
    )
    p.add_argument("position_id", help="gnubg Position ID")
    p.add_argument("--variant", choices=variants, default="standard", help="rules variant")
    p.add_argument("--svg", action="store_true", help="print an SVG picture instead of text")
    p.add_argument("--dice", help="with --svg: dice to draw, e.g. 31")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser(
        "demo",
        help="show the opening position and its moves",
        description="A short tour: the opening position and its legal moves for a roll.",
    )
    p.add_argument("--variant", choices=variants, default="standard", help="rules variant")
    p.add_argument("--dice", default="31", help="the roll to list moves for (default 31)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser(
        "verify-dice",
        help="check the dice of a finished match",
        description=(
            "Recompute every roll of a finished match from its action log: the revealed "
            "server seed must match the commitment published before the first roll, and "
            "each roll must follow from the seed, the match id and the client seeds. "
            "Exit status 0 when every roll checks, 1 otherwise (the first bad roll is named)."
        ),
    )
    p.add_argument("log", help="the match's action log (JSON lines)")
    p.set_defaults(func=cmd_verify_dice)

    p = sub.add_parser(
        "convert",
        help="convert a match between the action log, .mat, SGF and .xg",
        description=(
            "Convert a match record; the file extensions choose the formats: .jsonl or .log "
            "(gammon's action log), .mat or .txt (Jellyfish/gnubg/XG text match), .sgf "
            "(gnubg SGF: its moves and cube actions), .xg (eXtreme Gammon). Every move is "
            "checked by replaying it; what a .mat file writes that the rules cannot replay "
            "exactly is kept as gnubg keeps it, with a warning naming the line (--strict: "
            "refused)."
        ),
    )
    p.add_argument("source", help="the match to read (.jsonl, .log, .mat, .txt, .sgf, .xg)")
    p.add_argument("target", help="the file to write (.jsonl, .log, .mat, .txt, .sgf, .xg)")
    p.add_argument(
        "--strict",
        action="store_true",
        help="refuse a .mat file that does not replay exactly (no warnings)",
    )
    p.set_defaults(func=cmd_convert)

    p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="analyse a match with the bot",
        description=(
            "Evaluate every checker play and cube decision of a match (action log, .mat, "
            "SGF or .xg) "
            "at a chosen level: best moves, equity lost, blunder marks, error rates (PR and "
            "mEMG), luck, and the equity after every move. See docs/analysis.md."
        ),
    )
    try:
        from gammon.bots.analysis.cli import add_arguments as add_analysis_arguments
    except ImportError:  # pragma: no cover - without the bot extra
        p.add_argument("file")
    else:
        add_analysis_arguments(p)
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser(
        "play",
        help="play the bot in the terminal",
        description=(
            "A match or money session against the bot in the terminal, with every table "
            "option as a flag. Type 'help' at any prompt. The dice are verifiable and the "
            "match is saved as an action log at the end."
        ),
    )
    try:
        from gammon.tui.play import add_arguments
    except ImportError:  # pragma: no cover - without the bot extra
        p.set_defaults(func=cmd_play)
    else:
        add_arguments(p)
        p.set_defaults(func=cmd_play)

    _add_serve(sub)
    from gammon.server.community.admin import add_admin_parser

    add_admin_parser(sub)
    return parser


def _single_threaded_blas() -> None:
    """Keep numpy's BLAS on one thread unless the user chose otherwise.

    The variant nets multiply small matrices: OpenBLAS's threads cost more than they save
    (``gammon analyse`` on a 91-move plakoto match: 2.2 s of CPU with its threads, 1.0 s
    without), and the site already runs its heavy work in parallel processes and queues.
    It must be set before numpy is first imported, which every command does lazily.
    """
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gammon`` command; returns the exit status."""
    _single_threaded_blas()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except GammonError as exc:
        print(f"gammon: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. `gammon moves ... | head`
        return 0
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
