"""Writes the real-style corpus in tests/data/mat/corpus/ (run from the repository root).

    .venv/bin/python tests/data/mat/make_corpus.py

Each file is a match of our own engine (seeded random play with scripted events),
written in the layout of one producer: gnubg 1.07 (its column widths, ``Drops`` and
``Wins`` on one row), an online server (FIBS-like: ``bar``/``off``/``(2)``, ``Wins`` after
a move, forced moves left blank, a resignation after the loser's own move), eXtreme
Gammon (``; [Key "Value"]`` lines, CRLF, country codes), a money session with a beaver,
and a match excerpt that ends on a roll with no move.  It prints the expected outcome
of each file, the table in tests/match/formats/test_mat_corpus.py.  No file was copied from
anywhere.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gammon.dice import Dice
from gammon.match import (
    AcceptResign,
    Beaver,
    Double,
    Drop,
    Match,
    MatchRecord,
    Play,
    Resign,
    Roll,
    TableOptions,
    Take,
    replay,
)
from gammon.match.formats.transcript import Entry, transcripts

HERE = Path(__file__).resolve().parent / "corpus"

# --------------------------------------------------------------------------- playing


Policy = Callable[[Match, random.Random], bool]


def play(
    options: TableOptions,
    seed: int,
    players: tuple[str, str],
    script: Callable[[Match, random.Random], bool] | None = None,
    games: int = 99,
    stop_after: int | None = None,
    hit_bias: float = 0.6,
) -> MatchRecord:
    """Random legal play, hits preferred; ``script`` may push actions itself (returns True)."""
    rng = random.Random(seed)
    match = Match(options, players=players)
    pushed = 0
    while not match.state.over and len(match.state.games) < games:
        if stop_after is not None and pushed >= stop_after and match.state.game.phase == "turn":
            break
        state = match.state
        g = state.game
        if script is not None and script(match, rng):
            pushed += 1
            continue
        seat = g.turn if g.turn is not None else 0
        if g.phase == "opening":
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            match.push(Roll(0, Dice(a, b)))
        elif g.phase == "turn":
            match.push(Roll(seat, Dice(rng.randint(1, 6), rng.randint(1, 6))))
        elif g.phase == "moving":
            assert g.dice is not None
            moves = g.position.legal_moves(g.dice)
            hits = [m for m in moves if any(s.hit for s in m.steps)]
            pool = hits if hits and rng.random() < hit_bias else list(moves)
            # prefer bearing off, so games end
            offs = [m for m in pool if any(s.to_point == 0 for s in m.steps)]
            match.push(Play(seat, str(rng.choice(offs or pool))))
        elif g.phase in ("doubled", "beavered"):
            match.push(Take(1 - seat if g.phase == "doubled" else seat))
        else:
            raise AssertionError(g.phase)
        pushed += 1
    return match.record()


def cube_script(
    double_at: dict[int, list[int]], answers: dict[tuple[int, int], str]
) -> Callable[[Match, random.Random], bool]:
    """Double at the given turns of each game; answer 'take', 'drop' or 'beaver'."""
    turns: dict[int, int] = {}

    def script(match: Match, rng: random.Random) -> bool:
        g = match.state.game
        if g.phase == "turn":
            n = turns.get(g.number, 0)
            turns[g.number] = n + 1
            if n in double_at.get(g.number, []):
                match.push(Double(g.turn))  # type: ignore[arg-type]
                return True
        if g.phase == "doubled":
            answer = answers.get((g.number, turns.get(g.number, 0) - 1), "take")
            taker = 1 - g.turn  # type: ignore[operator]
            action = {"take": Take, "drop": Drop, "beaver": Beaver}[answer](taker)
            match.push(action)
            return True
        if g.phase == "beavered":
            match.push(Take(g.turn))  # type: ignore[arg-type]
            return True
        return False

    return script


def resign_script(at: dict[int, tuple[int, int]]) -> Callable[[Match, random.Random], bool]:
    """In game k, at turn n, the player on roll rolls and resigns at ``level``."""
    turns: dict[int, int] = {}

    def script(match: Match, rng: random.Random) -> bool:
        g = match.state.game
        if g.phase == "turn" and g.number in at:
            n = turns.get(g.number, 0)
            turns[g.number] = n + 1
            turn, level = at[g.number]
            if n == turn:
                seat = g.turn
                assert seat is not None
                match.push(Roll(seat, Dice(rng.randint(1, 6), rng.randint(1, 6))))
                if match.state.game.phase == "moving":
                    match.push(Resign(seat, level))
                    match.push(AcceptResign(1 - seat))
                return True
        return False

    return script


def chain(*scripts: Callable[[Match, random.Random], bool]) -> Policy:
    def script(match: Match, rng: random.Random) -> bool:
        return any(s(match, rng) for s in scripts)

    return script


# --------------------------------------------------------------------------- writing


@dataclass
class Style:
    head: list[str]
    right: int = 38  # where the right-hand column starts
    name_right: int | None = None  # where the second name starts (default: right)
    moves: str = "gnubg"  # gnubg: one from/to per die, 25 and 0; plain: bar/off/(2)
    forced_blank: bool = False
    drop_wins_row: bool = False  # gnubg: Wins in the right cell of the left player's Drops row
    wins_after_move: bool = False  # Wins in the right cell after the left player's last move
    resign_after_move: set[int] = field(default_factory=set)  # games: loser's move, then Wins
    trailing: bool = False  # end on a roll (43) with no move
    eol: str = "\n"
    pad: str = ""  # gnubg leaves a space after each move
    comments: dict[int, str] = field(default_factory=dict)  # game number -> a line after it


def _gnubg_steps(entry: Entry) -> str:
    ordered = sorted(entry.steps, key=lambda s: (-s.from_point, -s.to_point))
    return " ".join(f"{s.from_point}/{s.to_point}{'*' if s.hit else ''}" for s in ordered)


def render(record: MatchRecord, style: Style) -> str:
    states = replay(record)
    plays: list[tuple[str, bool]] = []  # canonical text, forced
    resign_moves: dict[int, str] = {}  # game -> the dice and a move for a resigned roll
    for before, action in zip(states, record.actions, strict=False):
        g = before.game
        if isinstance(action, Play):
            assert g.dice is not None
            plays.append((action.move, len(g.position.legal_moves(g.dice)) == 1))
        if isinstance(action, Resign) and g.number in style.resign_after_move:
            assert g.dice is not None
            move = g.position.legal_moves(g.dice)[0]
            resign_moves[g.number] = f"{g.dice.d1}{g.dice.d2}: {move}"
    play_index = 0
    lines = list(style.head)
    name_right = style.name_right or style.right
    for game in transcripts(record):
        lines.append(f" Game {game.number}")
        left = f" {record.players[0]} : {game.score[0]}"
        lines.append(left.ljust(name_right) + f"{record.players[1]} : {game.score[1]}")
        if game.number in style.comments:
            lines.append(style.comments[game.number])
        cells: list[list[str | None]] = []
        previous: Entry | None = None
        for entry in game.entries:
            beaver_taken = previous is not None and previous.kind == "beaver"
            previous = entry
            if beaver_taken and entry.kind == "take":
                continue  # gnubg writes no answer to a beaver: the doubler rolls on
            if not cells or (entry.player == 0 and cells[-1] != [None, None]) or cells[-1][1]:
                cells.append([None, None])
            if entry.kind == "move":
                assert entry.dice is not None
                d1, d2 = entry.dice.d1, entry.dice.d2
                dice = f"{max(d1, d2)}{min(d1, d2)}:" if style.moves == "gnubg" else f"{d1}{d2}:"
                if not entry.steps:
                    text = dice
                else:
                    canonical, forced = plays[play_index]
                    play_index += 1
                    move = canonical if style.moves == "plain" else _gnubg_steps(entry)
                    text = dice if forced and style.forced_blank else f"{dice} {move}{style.pad}"
            elif entry.kind in ("double", "beaver"):
                text = (
                    f" Doubles => {entry.cube}"
                    if entry.kind == "double"
                    else f" Beavers => {entry.cube}"
                )
            else:
                text = " Takes" if entry.kind == "take" else " Drops"
            cells[-1][entry.player] = text
        final = states[-1].game
        if style.trailing and game.outcome is None and final.phase == "turn":
            assert final.turn is not None
            if final.turn == 0 or not cells or cells[-1][1] is not None:
                cells.append([None, None])
            cells[-1][final.turn] = "43:"
        outcome = game.outcome
        wins = None
        if outcome is not None and outcome.winner is not None:
            wins = f" Wins {outcome.points} point{'s' if outcome.points != 1 else ''}"
            if game.match_over:
                wins += " and the match"
        if game.number in resign_moves and outcome is not None:
            loser = 1 - outcome.winner  # type: ignore[operator]
            if loser == 0 and (not cells or cells[-1][1] is not None):
                cells.append([None, None])
            if loser == 1 and cells and cells[-1][1] is not None:
                cells.append([None, None])
            cells[-1][loser] = resign_moves[game.number]
        joined = False
        for number, (a, b) in enumerate(cells, start=1):
            row = f"{number:3d}) " + (a or "").ljust(style.right - 5)
            last = number == len(cells)
            joins = (style.drop_wins_row and a == " Drops") or (
                style.wins_after_move
                and (a or "")[:1].isdigit()
                and outcome is not None
                and outcome.winner == 1
            )
            if last and wins and b is None and a is not None and joins:
                b, joined = wins, True
            lines.append((row + (b or "")).rstrip() if not style.pad else row + (b or ""))
        if wins and not joined:
            winner = outcome.winner if outcome else 0
            lines.append(" " * (5 if winner == 0 else style.right) + wins)
        lines.append("")
    return style.eol.join(lines) + style.eol


def expected(record: MatchRecord) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    final = replay(record)[-1]
    return final.score, [(o.winner, o.points) for o in final.games if o.winner is not None]


# --------------------------------------------------------------------------- the corpus


def corpus() -> dict[str, tuple[MatchRecord, Style]]:
    out: dict[str, tuple[MatchRecord, Style]] = {}

    gnubg = play(
        TableOptions(match_length=5),
        11,
        ("gnubg", "Kirsten"),
        chain(
            cube_script(
                {1: [6], 2: [3], 3: [7], 4: [4]}, {(1, 6): "drop", (2, 3): "drop", (3, 7): "drop"}
            ),
            resign_script({4: (12, 2)}),
        ),
    )
    out["gnubg_107_layout.mat"] = (
        gnubg,
        Style(
            head=['; [EventDate "2009.05.02"]', "", " 5 point match", ""],
            right=33,
            name_right=32,
            drop_wins_row=True,
            pad=" ",
        ),
    )

    fibs = play(
        TableOptions(match_length=7),
        23,
        ("hardyx", "marvin"),
        chain(
            cube_script({2: [5], 3: [6]}, {(2, 5): "drop"}), resign_script({1: (14, 1), 3: (16, 1)})
        ),
    )
    out["online_server_7pt.mat"] = (
        fibs,
        Style(
            head=[" 7 point match", ""],
            right=36,
            moves="plain",
            forced_blank=True,
            wins_after_move=True,
            resign_after_move={1, 3},
        ),
    )

    xg = play(
        TableOptions(match_length=3),
        5,
        ("Lucia", "Tomasz"),
        cube_script({1: [5], 3: [3]}, {(1, 5): "drop"}),
    )
    out["xg_3pt_crlf.mat"] = (
        xg,
        Style(
            head=[
                '; [Site "eXtreme Gammon 2"]',
                '; [Match ID "17461923"]',
                '; [Player 1 "Lucia"]',
                '; [Player 2 "Tomasz"]',
                '; [EventDate "2009.11.30"]',
                '; [EventTime "21.05"]',
                '; [Variation "Backgammon"]',
                '; [Crawford "On"]',
                '; [Jacoby "Off"]',
                '; [Beaver "Off"]',
                '; [Unlimited "Off"]',
                '; [CubeLimit "1024"]',
                "",
                " 3 point match",
                "",
            ],
            moves="plain",
            eol="\r\n",
        ),
    )

    money = play(
        TableOptions(beaver=True),
        8,
        ("ann", "boris"),
        chain(
            cube_script({1: [4], 2: [6], 3: [3]}, {(1, 4): "beaver", (2, 6): "drop"}),
            resign_script({3: (10, 1)}),
        ),
        games=3,
    )
    out["money_beaver.mat"] = (
        money,
        Style(
            head=["; a money session saved by hand", " 0 point match", ""],
            comments={2: "; game 2 was played after a break"},
        ),
    )

    excerpt = play(TableOptions(match_length=9), 31, ("Rui", "Wendy"), stop_after=300, hit_bias=0.1)
    out["excerpt_trailing_roll.mat"] = (
        excerpt,
        Style(
            head=[" 9 point match", ""],
            moves="plain",
            forced_blank=True,
            trailing=True,
        ),
    )
    return out


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, (record, style) in corpus().items():
        text = render(record, style)
        (HERE / name).write_bytes(text.encode("utf-8"))
        print(f"    ({name!r}, {expected(record)!r}),")


if __name__ == "__main__":
    main()
