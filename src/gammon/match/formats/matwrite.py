"""Writing a match as a ``.mat`` file, in the layout of gnubg's exporter.

>>> from gammon.dice import Dice
>>> from gammon.match import Match, Play, Roll, Double, Drop, TableOptions
>>> m = Match(TableOptions(match_length=3), players=("Alice", "Bob"))
>>> for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Roll(1, Dice(4, 2)),
...                Play(1, "13/11 13/9"), Roll(0, Dice(6, 2)), Play(0, "24/18 13/11"),
...                Double(1), Drop(0)):
...     _ = m.push(action)
>>> for line in match_to_mat(m.record()).splitlines():
...     print(line.rstrip())
 3 point match
<BLANKLINE>
 Game 1
 Alice : 0                            Bob : 0
  1) 31: 8/5 6/5                      42: 13/11 13/9
  2) 62: 24/18 13/11                   Doubles => 2
  3)  Drops
                                       Wins 1 point
<BLANKLINE>
"""

from __future__ import annotations

from gammon.match.formats.matlayout import CELL, RIGHT, VARIANT_TAGS
from gammon.match.formats.transcript import Entry, plural, transcripts
from gammon.match.options import TableOptions
from gammon.match.record import MatchRecord
from gammon.move import Step

__all__ = ["match_to_mat"]


def _steps_text(steps: tuple[Step, ...]) -> str:
    """gnubg's plain style: one ``from/to`` per die, highest first, bar 25, off 0, ``*`` on hits."""
    ordered = sorted(steps, key=lambda s: (-s.from_point, -s.to_point))
    return " ".join(f"{s.from_point}/{s.to_point}{'*' if s.hit else ''}" for s in ordered)


def _cell(entry: Entry) -> str:
    if entry.kind == "move":
        assert entry.dice is not None
        dice = f"{entry.dice.d1}{entry.dice.d2}:"
        return f"{dice} {_steps_text(entry.steps)}" if entry.steps else dice
    if entry.kind in ("double", "beaver", "raccoon"):
        return f" Doubles => {entry.cube}"
    return " Takes" if entry.kind == "take" else " Drops"


def _name(name: str, seat: int) -> str:
    cleaned = " ".join(name.split())
    return cleaned or f"Player {seat}"


def _tags(options: TableOptions) -> list[str]:
    """XG's ``; [Key "Value"]`` lines, written only for what differs from the defaults."""
    tags: list[tuple[str, str]] = []
    if options.variant != "standard":
        tags.append(("Variation", VARIANT_TAGS.get(options.variant, options.variant)))
    if options.is_match and not options.crawford:
        tags.append(("Crawford", "Off"))
    if options.jacoby:
        tags.append(("Jacoby", "On"))
    if options.beaver:
        tags.append(("Beaver", "On"))
    if not options.cube:
        tags.append(("CubeLimit", "1"))
    elif options.cube_limit is not None:
        tags.append(("CubeLimit", str(options.cube_limit)))
    if options.opening is not None and options.opening != options.game_variant(1).opening:
        # gammon's own tag: gnubg and XG ignore it (gnubg keeps it as the match comment)
        tags.append(("Opening", options.opening.capitalize()))
    return [f'; [{key} "{value}"]' for key, value in tags]


def match_to_mat(record: MatchRecord) -> str:
    """The match in the ``.mat`` layout of gnubg's exporter.

    Player 0 is the left column.  A money session is headed `` 0 point match``, as
    gnubg writes it.  Moves are written one ``from/to`` per die in the mover's
    numbering (bar 25, off 0, ``*`` on hits); a dance is the dice alone.  A
    resignation, an abandon or a timeout becomes the ``Wins`` line alone; a beaver
    is written `` Doubles => 4`` (the value after the beaver) in the beaverer's
    column, a raccoon likewise; a drawn game (the last-roll option) gets no
    ``Wins`` line.  Options the layout cannot hold but eXtreme Gammon's header
    can (variant, Crawford off, Jacoby, beaver, cube limit) are written as
    ``; [Key "Value"]`` lines above the header, and only when they differ from
    the defaults; so is gammon's own ``; [Opening "Reroll"]`` (a table whose
    roll-off winner rolls again, which the layout cannot show: its games may start
    with a double).  Roll-off ties, the roll-offs whose winner rolled again, rejected
    resignations and the roll made just before a resignation are left out.
    """
    record.options.require_backgammon_geometry(".mat")
    names = (_name(record.players[0], 0), _name(record.players[1], 1))
    lines = _tags(record.options)
    lines += [f" {record.options.match_length} point match", ""]
    for game in transcripts(record):
        lines.append(f" Game {game.number}")
        left = f"{names[0]} : {game.score[0]}"
        lines.append(
            " " + left + " " * max(1, RIGHT - 1 - len(left)) + f"{names[1]} : {game.score[1]}"
        )
        rows: list[list[str | None]] = []
        for entry in game.entries:
            if (
                not rows
                or (entry.player == 0 and rows[-1] != [None, None])
                or rows[-1][1] is not None
            ):
                rows.append([None, None])
            rows[-1][entry.player] = _cell(entry)
        for number, (cell0, cell1) in enumerate(rows, start=1):
            left_cell = cell0 or ""
            if cell1 and len(left_cell) >= CELL:
                left_cell += " "
            lines.append(f"{number:3d}) {left_cell:<{CELL}}{cell1 or ''}")
        outcome = game.outcome
        if outcome is not None and outcome.winner is not None:
            text = f" Wins {outcome.points} {plural(outcome.points)}"
            if game.match_over:
                text += " and the match"
            lines.append(" " * (5 if outcome.winner == 0 else RIGHT) + text)
        lines.append("")
    return "\n".join(lines) + "\n"
