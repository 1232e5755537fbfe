"""Writes the dialect corpus in tests/data/mat/dialects/ (run from the repository root).

    PYTHONPATH=src .venv/bin/python tests/data/mat/dialects/make_dialects.py

One file per layout of issue #16 that gnubg 1.07 reads and that a strict reader refuses:
Backgammon Studio (an empty numbered row after ``Wins``, ``Cannot Move``, ``bar/``,
``/off``, ``(2)``, ``????`` for the roll of a player who resigned, short moves such as
``41: 6/1``), Backgammon Galaxy (``Losses N point(s)`` after a move, on its own row and
beside the winner's ``Wins``; ``Wins N points and the match`` capped at the points
needed), an empty player name, ``???`` for moves nobody recorded, a playable roll with no
move, impossible points, a resignation during the winner's turn, a money session whose
score lines stay 0-0, a resignation written where an abandon would score more, and the
Snowie / FIBS and DailyGammon layouts.

Every game is seeded random play of our engine (so every written move is legal), put
into each program's layout by the functions below; no file was copied from anywhere.
The expected outcomes (``expected.json``) are what gnubg reads from each file:
``benchmarks/mat_corpus.py tests/data/mat/dialects --write-expected`` writes them.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from make_corpus import chain, cube_script, play, resign_script  # noqa: E402

from gammon.dice import Dice  # noqa: E402
from gammon.errors import IllegalActionError  # noqa: E402
from gammon.match import (  # noqa: E402
    AcceptResign,
    Match,
    MatchRecord,
    Play,
    Resign,
    Roll,
    TableOptions,
    replay,
)
from gammon.match.formats.transcript import Entry, transcripts  # noqa: E402
from gammon.match.state import GameState  # noqa: E402
from gammon.move import Step  # noqa: E402

# --------------------------------------------------------------------------- cells


@dataclass
class GameText:
    """One game as rows of [left, right] cells, with its written result."""

    number: int
    rows: list[list[str]]
    winner: int | None
    points: int
    match_over: bool
    start: tuple[int, int] = (0, 0)
    #: lines written after the rows (the result), built by the dialect
    tail: list[str] = field(default_factory=list)
    #: each move cell's (row, seat, entry) in order, for edits
    moves: list[tuple[int, int, Entry]] = field(default_factory=list)


def numeric(entry: Entry) -> str:
    """gnubg's notation: one from/to per die, highest first, bar 25 and off 0."""
    ordered = sorted(entry.steps, key=lambda s: (-s.from_point, -s.to_point))
    return " ".join(f"{s.from_point}/{s.to_point}{'*' if s.hit else ''}" for s in ordered)


def _word(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


def words(entry: Entry) -> str:
    """Backgammon Studio / Galaxy notation: bar/off words, repeated steps as ``(2)``."""
    ordered = sorted(entry.steps, key=lambda s: (-s.from_point, -s.to_point))
    out: list[str] = []
    counts: dict[Step, int] = {}
    for step in ordered:
        counts[step] = counts.get(step, 0) + 1
    for step, n in counts.items():
        text = f"{_word(step.from_point)}/{_word(step.to_point)}{'*' if step.hit else ''}"
        out.append(text + (f"({n})" if n > 1 else ""))
    return " ".join(out)


def games_of(
    record: MatchRecord, notation: Callable[[Entry], str], dance: str = "", dice_order: str = "high"
) -> list[GameText]:
    """Each game's rows, as the gnubg layout places them (a new row for the left player)."""
    out: list[GameText] = []
    for game in transcripts(record):
        rows: list[list[str]] = []
        moves: list[tuple[int, int, Entry]] = []
        previous: Entry | None = None
        for entry in game.entries:
            beaver_taken = previous is not None and previous.kind == "beaver"
            previous = entry
            if beaver_taken and entry.kind == "take":
                continue
            if not rows or (entry.player == 0 and rows[-1] != ["", ""]) or rows[-1][1]:
                rows.append(["", ""])
            if entry.kind == "move":
                assert entry.dice is not None
                a, b = entry.dice.d1, entry.dice.d2
                dice = f"{max(a, b)}{min(a, b)}:" if dice_order == "high" else f"{a}{b}:"
                text = f"{dice} {notation(entry)}" if entry.steps else f"{dice}{dance}"
                moves.append((len(rows) - 1, entry.player, entry))
            elif entry.kind == "double":
                text = f" Doubles => {entry.cube}"
            elif entry.kind == "beaver":
                text = f" Beavers => {entry.cube}"
            else:
                text = " Takes" if entry.kind == "take" else " Drops"
            rows[-1][entry.player] = text
        outcome = game.outcome
        winner = outcome.winner if outcome is not None else None
        points = outcome.points if outcome is not None else 0
        out.append(GameText(game.number, rows, winner, points, game.match_over, moves=moves))
    return out


def wins(points: int, match_over: bool = False, plural: bool = True) -> str:
    unit = "points" if plural and points != 1 else "point"
    return f"Wins {points} {unit}" + (" and the match" if match_over else "")


def losses(points: int) -> str:
    return f"Losses {points} point{'s' if points != 1 else ''}"


def gnubg_tail(game: GameText, right: int, plural: bool = True) -> None:
    """The result alone on a line in the winner's column (gnubg)."""
    if game.winner is not None:
        pad = 6 if game.winner == 0 else right
        game.tail = [" " * pad + wins(game.points, game.match_over, plural)]


@dataclass
class Layout:
    head: list[str]
    names: tuple[str, str]
    right: int = 38
    eol: str = "\n"
    start: tuple[int, int] = (0, 0)
    #: money sessions whose score lines stay 0-0
    frozen_score: bool = False
    length: int = 0


def write(layout: Layout, games: list[GameText]) -> str:
    """The file: each game's score line from the written results of the games before it."""
    lines = list(layout.head)
    score = list(layout.start)
    for game in games:
        shown = (0, 0) if layout.frozen_score else (score[0], score[1])
        lines.append(f" Game {game.number}")
        left = f" {layout.names[0]} : {shown[0]}"
        lines.append(left.ljust(layout.right) + f"{layout.names[1]} : {shown[1]}".rstrip())
        for number, (a, b) in enumerate(game.rows, start=1):
            cell = a.ljust(layout.right - 5) if len(a) < layout.right - 6 else a + "  "
            lines.append((f"{number:3d}) " + cell + b).rstrip())
        lines.extend(game.tail)
        lines.append("")
        if game.winner is not None:
            score[game.winner] += game.points
    return layout.eol.join(lines) + layout.eol


# --------------------------------------------------------------------------- helpers


Script = Callable[[Match, random.Random], bool]


def safe(script: Script) -> Script:
    """A scripted action that the rules refuse here (a double in the Crawford game) is
    skipped: random play goes on."""

    def run(match: Match, rng: random.Random) -> bool:
        try:
            return script(match, rng)
        except IllegalActionError:
            return False

    return run


def studio_head(p0: str, p1: str, length: int) -> list[str]:
    return [
        '; [Site "Backgammon Studio"]',
        '; [Match ID "bs-20260412-1733"]',
        '; [Event "Sunday Open"]',
        '; [Round "Round 2"]',
        f'; [Player 1 "{p0}"]',
        f'; [Player 2 "{p1}"]',
        '; [EventDate "2026.04.12"]',
        '; [EventTime "17.33"]',
        '; [Unrated "Off"]',
        '; [Crawford "On"]',
        '; [CubeLimit "1024"]',
        '; [ClockType "Fischer"]',
        "",
        f"{length} point match",
        "",
    ]


def galaxy_head(length: int) -> list[str]:
    return [
        '; [Site "BackgammonGalaxy"]',
        '; [Match ID "gx-98117342"]',
        '; [Player 1 Elo "1611,42/318"]',
        '; [Player 2 Elo "1702,05/977"]',
        '; [EventDate "2026.03.08"]',
        '; [EventTime "21.14"]',
        '; [Variation "Backgammon"]',
        '; [Unrated "Off"]',
        '; [Crawford "On"]',
        '; [CubeLimit "1024"]',
        "",
        f"{length} point match",
        "",
    ]


def studio_tail(game: GameText) -> None:
    """Backgammon Studio: ``Wins N point`` in the winner's cell of a numbered row, then an
    empty numbered row."""
    if game.winner is None:
        return
    text = wins(game.points, game.match_over, plural=False)
    row = ["", ""]
    row[game.winner] = text if game.winner == 1 else " " + text
    game.rows.append(row)
    game.rows.append(["", ""])


def resignations(record: MatchRecord) -> dict[int, tuple[int, GameState]]:
    """For each game a resignation ended: who resigned, and the game just before (after
    that player's roll)."""
    out: dict[int, tuple[int, GameState]] = {}
    for before, action in zip(replay(record), record.actions, strict=False):
        if isinstance(action, Resign):
            assert before.game.dice is not None
            out[before.game.number] = (action.player, before.game)
    return out


def rolled(game: GameState) -> str:
    """The dice of the roll in ``game``, gnubg's way: ``52:``."""
    assert game.dice is not None
    return f"{game.dice.high}{game.dice.low}:"


def put_last(game: GameText, seat: int, text: str) -> None:
    """Write ``text`` in ``seat``'s cell of a row after the game's last entry."""
    if seat == 0 or not game.rows or game.rows[-1][1]:
        game.rows.append(["", ""])
    game.rows[-1][seat] = text


# --------------------------------------------------------------------------- the files


def studio_layout() -> str:
    record = play(
        TableOptions(match_length=5),
        101,
        ("Bluejay", "tester"),
        safe(cube_script({1: [5], 3: [4]}, {(1, 5): "drop"})),
        hit_bias=0.3,
    )
    games = games_of(record, words, dance=" Cannot Move", dice_order="high")
    for game in games:
        studio_tail(game)
    return write(
        Layout(studio_head("Bluejay", "tester", 5), ("Bluejay", "tester"), right=33), games
    )


def studio_resign_hidden() -> str:
    """``52: ????``: the roll of the player who resigned instead of playing it."""
    record = play(
        TableOptions(match_length=5),
        202,
        ("Cardinal", "tester"),
        safe(chain(cube_script({2: [6]}, {}), resign_script({1: (12, 1), 2: (15, 1)}))),
        hit_bias=0.2,
    )
    games = games_of(record, words, dance=" Cannot Move")
    resigned = resignations(record)
    for game in games:
        if game.number in resigned:
            seat, before = resigned[game.number]
            put_last(game, seat, rolled(before) + " ????")
        studio_tail(game)
    return write(
        Layout(studio_head("Cardinal", "tester", 5), ("Cardinal", "tester"), right=33), games
    )


def short_form(entry: Entry) -> str | None:
    """``6/1`` for one checker moved by both dice of a non-double, when an intermediate
    landing point could have been the other one (so the text has two readings)."""
    if len(entry.steps) != 2 or entry.dice is None or entry.dice.d1 == entry.dice.d2:
        return None
    a, b = entry.steps
    if a.to_point != b.from_point or a.from_point == 25 or b.to_point == 0:
        return None
    if a.hit or b.hit:
        return None
    return f"{a.from_point}/{b.to_point}"


def studio_ambiguous() -> str:
    """Short moves such as ``41: 6/1`` where one reading hits on the way."""
    record = play(TableOptions(match_length=3), 303, ("Linnet", "tester"), hit_bias=0.05)
    games = games_of(record, words)
    states = replay(record)
    plays = [
        (before, action)
        for before, action in zip(states, record.actions, strict=False)
        if isinstance(action, Play)
    ]
    index = 0
    for game in games:
        for row, seat, entry in game.moves:
            if not entry.steps:
                continue
            before, _ = plays[index]
            index += 1
            g = before.game
            assert g.dice is not None
            text = short_form(entry)
            if text is None:
                continue
            via = [
                m
                for m in g.position.legal_moves(g.dice)
                if len(m.steps) == 2
                and m.steps[0].from_point == entry.steps[0].from_point
                and m.steps[1].to_point == entry.steps[1].to_point
                and m.steps[0].to_point == m.steps[1].from_point
                and any(s.hit for s in m.steps)
            ]
            if via:
                d = f"{max(g.dice.d1, g.dice.d2)}{min(g.dice.d1, g.dice.d2)}"
                game.rows[row][seat] = f"{d}: {text}"
        studio_tail(game)
    return write(Layout(studio_head("Linnet", "tester", 3), ("Linnet", "tester"), right=33), games)


def _losses_cells(game: GameText, style: str) -> None:
    """Galaxy: the loser's ``Losses N point(s)`` and the winner's ``Wins``."""
    if game.winner is None:
        return
    winner, loser = game.winner, 1 - game.winner
    won = wins(game.points, game.match_over)
    lost = losses(game.points)
    last = game.rows[-1] if game.rows else None
    if style == "after_move" and last is not None and not last[loser]:
        last[loser] = lost  # on the row of the winner's last move
        game.tail = [" " * (6 if winner == 0 else 38) + won]
    elif style == "beside":
        row = ["", ""]
        row[loser], row[winner] = " " + lost, won if winner == 1 else " " + won
        game.rows.append(row)
    else:
        row = ["", ""]
        row[loser] = lost if loser == 1 else " " + lost
        game.rows.append(row)
        game.tail = [" " * (6 if winner == 0 else 38) + won]


def galaxy_losses() -> str:
    """Backgammon Galaxy: ``Losses N point(s)`` after a move, alone on a row, and beside
    the winner's ``Wins`` on one row."""
    record = play(
        TableOptions(match_length=7),
        404,
        ("lasse", "mglough"),
        safe(chain(cube_script({2: [7], 4: [5]}, {(2, 7): "drop"}), resign_script({3: (9, 1)}))),
        hit_bias=0.2,
    )
    games = games_of(record, words, dice_order="high")
    styles = ["after_move", "own_row", "beside"]
    for i, game in enumerate(games):
        _losses_cells(game, styles[i % 3])
    return write(Layout(galaxy_head(7), ("lasse", "mglough"), right=38), games)


def galaxy_match_capped() -> str:
    """``Wins N points and the match`` with N the points the winner needed, less than the
    gammon or the cube gave."""
    record = play(
        TableOptions(match_length=3),
        505,
        ("Ptarmigan", "zed77"),
        safe(cube_script({1: [4], 2: [3]}, {})),
        hit_bias=0.3,
    )
    games = games_of(record, words, dance="")
    score = [0, 0]
    for game in games:
        if game.match_over and game.winner is not None:
            game.points = min(game.points, 3 - score[game.winner])
        if game.winner is not None:
            score[game.winner] += game.points
        _losses_cells(game, "beside")
    return write(Layout(galaxy_head(3), ("Ptarmigan", "zed77"), right=38), games)


def empty_name() -> str:
    """A score line with no name for one player (`` lasse : 0      : 0``)."""
    record = play(TableOptions(match_length=3), 606, ("lasse", ""), hit_bias=0.3)
    games = games_of(record, words, dance="")
    for game in games:
        _losses_cells(game, "beside")
    return write(Layout(galaxy_head(3), ("lasse", ""), right=38), games)


def _hand_head(length: int) -> list[str]:
    return [
        "; Transcribed by hand from the score sheets of the club final",
        "; moves nobody wrote down are marked ???",
        "",
        f" {length} point match",
        "",
    ]


def hand_unknown() -> str:
    """``???`` for moves nobody recorded (a hand transcription of a live match)."""
    record = play(TableOptions(match_length=5), 707, ("Mira", "Jonas"), hit_bias=0.2)
    games = games_of(record, numeric)
    for game in games:
        if game.number == 1:
            played = [(r, s) for r, s, e in game.moves if e.steps]
            for row, seat in (played[6], played[7], played[len(played) // 2]):
                dice = game.rows[row][seat].split(":")[0]
                game.rows[row][seat] = f"{dice}: ???"
        gnubg_tail(game, 38)
    return write(Layout(_hand_head(5), ("Mira", "Jonas")), games)


def playable_no_move() -> str:
    """A roll that could be played, written with no move, in the middle of a game."""
    record = play(TableOptions(match_length=3), 808, ("Oskar", "Pia"), hit_bias=0.2)
    games = games_of(record, numeric)
    for game in games:
        if game.number == 1:
            played = [(r, s, e) for r, s, e in game.moves if e.steps and len(e.steps) == 2]
            row, seat, _ = played[len(played) // 2]
            game.rows[row][seat] = game.rows[row][seat].split(":")[0] + ":"
        gnubg_tail(game, 38)
    return write(Layout([" 3 point match", ""], ("Oskar", "Pia")), games)


def impossible_points() -> str:
    """``Wins 100 points`` at cube 2: more than a backgammon could give."""
    record = play(
        TableOptions(jacoby=True),
        909,
        ("Hugo", "Ines"),
        safe(chain(cube_script({2: [3]}, {}), resign_script({2: (8, 1)}))),
        games=3,
        hit_bias=0.2,
    )
    games = games_of(record, numeric)
    for game in games:
        if game.number == 2:
            game.points = 100
        gnubg_tail(game, 38)
    return write(Layout([" 0 point match", ""], ("Hugo", "Ines")), games)


def offturn_resign() -> str:
    """The loser resigns while the winner is on roll: the winner's roll has no move and
    the winner's ``Wins`` follows it."""
    record = play(
        TableOptions(match_length=5),
        1010,
        ("Quentin", "Rosa"),
        safe(resign_script({1: (10, 1), 2: (11, 1)})),
        hit_bias=0.2,
    )
    games = games_of(record, numeric)
    resigned = resignations(record)
    for game in games:
        if game.number in resigned:
            # the roller did not resign: the other player did, and the roller wins
            roller, before = resigned[game.number]
            put_last(game, roller, rolled(before))
            game.winner = roller
        gnubg_tail(game, 38)
    return write(Layout([" 5 point match", ""], ("Quentin", "Rosa")), games)


def money_zero_scores() -> str:
    """A money session whose score lines stay 0 : 0 from game to game."""
    record = play(
        TableOptions(jacoby=True),
        1111,
        ("tom", "ulla"),
        safe(cube_script({1: [5], 3: [4]}, {(3, 4): "drop"})),
        games=3,
        hit_bias=0.2,
    )
    games = games_of(record, numeric)
    for game in games:
        gnubg_tail(game, 38)
    return write(
        Layout(
            ["; money session, scores not kept", " 0 point match", ""],
            ("tom", "ulla"),
            frozen_score=True,
        ),
        games,
    )


def _backgammoned(match: Match, rng: random.Random) -> bool:
    """Resign at a single game once the player on roll has a checker in the opponent's
    home board and none borne off (an abandon there would score a backgammon)."""
    g = match.state.game
    if g.phase != "turn" or g.turn is None or g.plies < 20:
        return False
    pos = g.position
    behind = any(pos.player[p] for p in range(19, 26))
    if behind and pos.opponent[0] > 0 and pos.player[0] == 0:
        seat = g.turn
        match.push(Roll(seat, Dice(rng.randint(1, 6), rng.randint(1, 6))))
        if match.state.game.phase == "moving":
            match.push(Resign(seat, 1))
            match.push(AcceptResign(1 - seat))
            return True
        return True
    return False


def abandon_vs_resign() -> str:
    """A 1-point match: the loser plays a move, then the winner's ``Wins 1 point and the
    match`` (a resignation at a single game) while the loser is still in the winner's
    home board with no checker off: an abandon would score 3."""
    record = play(
        TableOptions(match_length=1), 1212, ("Sven", "Tara"), safe(_backgammoned), hit_bias=0.6
    )
    games = games_of(record, numeric)
    for number, (seat, before) in resignations(record).items():
        assert before.dice is not None
        move = before.position.legal_moves(before.dice)[0]
        text = numeric(Entry(seat, "move", before.dice, move.steps))
        put_last(games[number - 1], seat, f"{rolled(before)} {text}")
    for game in games:
        gnubg_tail(game, 38)
    return write(Layout([" 1 point match", ""], ("Sven", "Tara")), games)


def snowie_fibs() -> str:
    """A FIBS match as Snowie exports it: gnubg-like columns, ``Wins`` alone, numeric
    moves with 25 and 0, a dance as the dice alone."""
    record = play(
        TableOptions(match_length=5),
        1313,
        ("hardyx", "Moonbeam"),
        safe(chain(cube_script({1: [6], 2: [5]}, {(1, 6): "drop"}), resign_script({3: (9, 1)}))),
        hit_bias=0.3,
    )
    games = games_of(record, numeric)
    for game in games:
        gnubg_tail(game, 34)
    head = [
        '; [Site "FIBS"]',
        '; [Player 1 "hardyx"]',
        '; [Player 2 "Moonbeam"]',
        "",
        " 5 point match",
        "",
    ]
    return write(Layout(head, ("hardyx", "Moonbeam"), right=34, eol="\r\n"), games)


def dailygammon() -> str:
    """DailyGammon's export: a long match, plural ``points`` header, moves in order of the
    dice with ``bar``/``off``."""
    record = play(
        TableOptions(match_length=11),
        1414,
        ("tavla_fan", "Ugo"),
        safe(cube_script({1: [5], 2: [6], 3: [4]}, {(2, 6): "drop"})),
        games=4,
        hit_bias=0.3,
    )
    games = games_of(record, words, dice_order="as rolled")
    for game in games:
        gnubg_tail(game, 38)
    return write(Layout([" 11 point match", ""], ("tavla_fan", "Ugo")), games)


def offturn_after_redouble() -> str:
    """Written by hand in the shape of a real money file that gnubg reads with a warning:
    the winner redoubles and is taken, then writes an illegal move (``6/0 4/0`` from the
    starting position) and ``Wins 4 point``.  gnubg leaves the move out and records the
    loser resigning a single game at cube 4 during the winner's turn."""
    return (
        '; [Match ID "h13-cube-take"]\n\n0 point match\n\n Game 1\n'
        " ann : 0                         ben : 0\n"
        "  1) 42: 8/4 6/4                  Doubles => 2\n"
        "  2)  Takes                      31: 8/5 6/5\n"
        "  3)  Doubles => 4                Takes\n"
        "  4) 64: 6/0 4/0\n"
        "      Wins 4 point\n"
    )


def double_first_roll() -> str:
    """Written by hand: game 2 starts with 44 for the winner of game 1 (no roll-off, as
    when the winner of a game starts the next); gnubg keeps its moves."""
    return (
        " 3 point match\n\n Game 1\n"
        " Alice : 0                            Bob : 0\n"
        "  1) 31: 8/5 6/5                       42: 8/4 6/4\n"
        "  2)  Doubles => 2                     Drops\n"
        "      Wins 1 point\n\n Game 2\n"
        " Alice : 1                            Bob : 0\n"
        "  1) 44: 24/20 24/20 13/9 13/9        31: 13/10 24/23\n"
        "  2) 62: 20/14 13/11                   Doubles => 2\n"
        "  3)  Drops\n"
        "                                       Wins 1 point\n"
    )


def galaxy_losses_same_column() -> str:
    """Written by hand in Backgammon Galaxy's shape: ``Losses`` and ``Wins`` both in the
    left column after the winner's last move; gnubg reads the winner from the ``Wins``
    line's column alone (a match excerpt at 1-1, where either player reaches 3)."""
    return (
        '; [Site "BackgammonGalaxy"]\n; [Crawford "On"]\n\n3 point match\n\n Game 1\n'
        " lasse : 1                       yueda : 1\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "  2) 62: 24/18 13/11\n"
        " Losses 2 point\n\n"
        "      Wins 2 point and the match\n"
    )


def dance_then_resign() -> str:
    """Written by hand: the loser dances (``55:`` against the winner's 5 point) and then
    resigns during the winner's turn, ``Wins 1 point and the match``; gnubg counts the
    resignation (1 point), not an abandon (a backgammon: a checker on the bar)."""
    return (
        " 1 point match\n\n Game 1\n"
        " ann : 0                         ben : 0\n"
        "  1) 31: 8/5 6/5                 64: 24/18 13/9\n"
        "  2) 21: 8/7* 6/4                55:\n"
        "      Wins 1 point and the match\n"
    )


def cube_before_first_roll() -> str:
    """Written by hand: game 1's first entry is a double and its take, before any roll
    (gnubg keeps them there, and every move after); Bob's redouble to 4 is dropped."""
    return (
        " 5 point match\n\n Game 1\n"
        " Alice : 0                            Bob : 0\n"
        "  1)  Doubles => 2                     Takes\n"
        "  2) 31: 8/5 6/5                       42: 8/4 6/4\n"
        "  3) 64: 24/18 13/9                    53: 13/8 13/10\n"
        "  4) 62: 18/10                         Doubles => 4\n"
        "  5)  Drops\n"
        "                                       Wins 2 points\n\n Game 2\n"
        " Alice : 0                            Bob : 2\n"
        "  1)                                   51: 13/8 6/5\n"
        "  2)  Doubles => 2                     Drops\n"
        "      Wins 1 point\n"
    )


def galaxy_capped_resign() -> str:
    """Written by hand in Backgammon Galaxy's shape: at cube 4 the loser moves and
    resigns on the winner's turn, ``Wins 3 point and the match`` (the points needed);
    gnubg counts a single game at cube 4 (4 points), not the gammon of an abandon (8)."""
    return (
        '; [Site "BackgammonGalaxy"]\n; [Crawford "On"]\n\n3 point match\n\n Game 1\n'
        " lasse : 0                       yueda : 0\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "  2)  Doubles => 2                Takes\n"
        "  3) 64: 24/18 13/9               Doubles => 4\n"
        "  4)  Takes                      53: 13/8 13/10\n"
        "                                  Losses 3 point\n\n"
        "      Wins 3 point and the match\n"
    )


def double_first_game() -> str:
    """Written by hand (issue #32): game 1 starts with 44 (a roll-off whose winner rolls
    both dice again, the older rules); gnubg keeps its moves.  Game 2 starts as usual."""
    return (
        " 3 point match\n\n Game 1\n"
        " Alice : 0                            Bob : 0\n"
        "  1) 44: 24/20 24/20 13/9 13/9        31: 24/23 13/10\n"
        "  2) 62: 20/14 13/11                   Doubles => 2\n"
        "  3)  Drops\n"
        "                                       Wins 1 point\n\n Game 2\n"
        " Alice : 0                            Bob : 1\n"
        "  1)                                   51: 13/8 6/5\n"
        "  2) 66: 24/18 24/18 13/7 13/7         Doubles => 2\n"
        "  3)  Takes                            42: 8/4 6/4\n"
        "  4) 31: 8/5 6/5\n"
        "      Wins 2 points\n"
    )


def corpus() -> dict[str, str]:
    return {
        "studio_layout.mat": studio_layout(),
        "studio_resign_hidden.mat": studio_resign_hidden(),
        "studio_ambiguous.mat": studio_ambiguous(),
        "galaxy_losses.mat": galaxy_losses(),
        "galaxy_match_capped.mat": galaxy_match_capped(),
        "empty_name.mat": empty_name(),
        "hand_unknown.mat": hand_unknown(),
        "playable_no_move.mat": playable_no_move(),
        "impossible_points.mat": impossible_points(),
        "offturn_resign.mat": offturn_resign(),
        "money_zero_scores.mat": money_zero_scores(),
        "abandon_vs_resign.mat": abandon_vs_resign(),
        "snowie_fibs.mat": snowie_fibs(),
        "dailygammon.mat": dailygammon(),
        "offturn_after_redouble.mat": offturn_after_redouble(),
        "double_first_roll.mat": double_first_roll(),
        "galaxy_losses_same_column.mat": galaxy_losses_same_column(),
        "dance_then_resign.mat": dance_then_resign(),
        "cube_before_first_roll.mat": cube_before_first_roll(),
        "galaxy_capped_resign.mat": galaxy_capped_resign(),
        "double_first_game.mat": double_first_game(),
    }


def main() -> None:
    for name, text in corpus().items():
        (HERE / name).write_bytes(text.encode("utf-8"))
        print(name)


if __name__ == "__main__":
    main()
