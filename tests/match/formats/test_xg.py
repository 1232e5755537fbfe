"""eXtreme Gammon files (``gammon.match.formats.xg``): what we write reads back, and an independent
reader (bgsage's ``xg_compare`` / ``xg_file``, a dev dependency) sees in it the same
players, scores, boards, dice and cube actions as our record."""

from __future__ import annotations

import random
import struct
from pathlib import Path
from typing import Any

import pytest

from gammon import Dice, InvalidNotationError, Position
from gammon.match import (
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
from gammon.match.engine import apply
from gammon.match.formats import import_warnings, mat_to_record
from gammon.match.formats.xg import (
    RECORD,
    from_frame,
    gnubg_to_xgp,
    read_archive,
    record_to_xg,
    to_frame,
    xg_to_record,
    xgp_to_gnubg,
)
from gammon.notation.matchid import MatchIDRecord
from gammon.variants import Opening
from strategies import random_action

xg_compare = pytest.importorskip("bgsage.xg_compare", reason="bgsage is a dev dependency")
xg_file = pytest.importorskip("bgsage.xg_file", reason="bgsage is a dev dependency")

CORPUS = Path(__file__).resolve().parents[2] / "data" / "mat" / "corpus"


def random_record(seed: int, length: int, opening: Opening | None = None) -> MatchRecord:
    """Random play that stays on the board (no resignations, abandons or timeouts)."""
    rng = random.Random(seed)
    options = TableOptions(match_length=length, beaver=length == 0, opening=opening)
    match = Match(options, players=("Ana", "Bo"))
    while not match.state.over and len(match.state.games) < 3 and len(match.actions) < 3000:
        action = random_action(match.state, rng)
        if type(action).__name__ in ("Resign", "Abandon", "Timeout", "RejectResign"):
            continue
        match.push(action)
    return match.record()


def records() -> list[tuple[str, MatchRecord]]:
    out = [(f"random-{seed}", random_record(seed, seed % 4 * 2 + (seed % 2))) for seed in range(8)]
    out += [(f"reroll-{seed}", random_record(seed, seed * 3, "reroll")) for seed in (1, 2)]
    out += [
        (p.name, mat_to_record(p.read_text(encoding="utf-8")))
        for p in sorted(CORPUS.iterdir())
        if p.suffix == ".mat"
    ]
    return out


def our_turns(record: MatchRecord) -> list[list[dict[str, Any]]]:
    """Each game's moves (dances too) as bgsage lists them: seat, dice, both boards from
    player 1's (our seat 0's) side with the bars as counts."""
    games: dict[int, list[dict[str, Any]]] = {}
    state = record.initial_state()
    for action in record.actions:
        before, transition = state, apply(state, action)
        state = transition.state
        g = before.game
        dance = next((e for e in transition.events if e.kind == "no_move"), None)
        if isinstance(action, Roll) and dance is not None:
            seat, after = dance.player, g.position
            dice = list(dance.data["dice"])
        elif isinstance(action, Play):
            assert g.dice is not None
            seat, dice = action.player, [g.dice.d1, g.dice.d2]
            after = g.position.apply(g.position.parse_move(action.move, g.dice)).flipped()
        else:
            continue
        assert seat is not None

        def p1(position: Position, seat: int = seat) -> list[int]:
            board = list(to_frame(position if seat == 0 else position.flipped()))
            board[0], board[25] = abs(board[0]), abs(board[25])
            return board

        games.setdefault(g.number, []).append(
            {"seat": seat, "dice": dice, "before": p1(g.position), "after": p1(after)}
        )
    return [games[n] for n in sorted(games)]


def bgsage_turns(data: bytes) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
    parsed = xg_compare.parse_xg_match(data)
    games = []
    for game in parsed["games"]:
        turns = []
        for turn in game["turns"]:
            if turn["board_after"] is None:  # a double that was dropped
                continue
            before, after = list(turn["board_before"]), list(turn["board_after"])
            for board in (before, after):
                board[0], board[25] = abs(board[0]), abs(board[25])
            turns.append(
                {
                    "seat": 0 if turn["player"] == "user" else 1,
                    "dice": turn["dice"],
                    "before": before,
                    "after": after,
                }
            )
        games.append(turns)
    return parsed, games


@pytest.mark.parametrize(
    ("name", "record"), records(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_bgsage_reads_what_we_write(name: str, record: MatchRecord) -> None:
    data = record_to_xg(record)
    parsed, theirs = bgsage_turns(data)
    assert (parsed["player1"], parsed["player2"]) == record.players
    assert parsed["match_length"] == record.options.match_length
    final = replay(record)[-1]
    ours = our_turns(record)
    # bgsage lists the finished games (a game in progress has no footer record)
    assert len(theirs) == len(final.games)
    assert theirs == ours[: len(theirs)]
    starts = [(g["score1_start"], g["score2_start"]) for g in parsed["games"]]
    score = list(record.start_score)
    expected = []
    for outcome in final.games:
        expected.append((score[0], score[1]))
        if outcome.winner is not None:
            score[outcome.winner] += outcome.points
    assert starts[: len(expected)] == expected
    # bgsage's cube turns: a double answered by take or drop where we doubled
    cubes = [t["cube_action"] for g in parsed["games"] for t in g["turns"] if t["cube_action"]]
    doubles = sum(isinstance(a, Double) for a in record.actions)
    assert len(cubes) == doubles


@pytest.mark.parametrize(
    ("name", "record"), records(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_what_we_write_reads_back(name: str, record: MatchRecord) -> None:
    back = xg_to_record(record_to_xg(record))
    assert back.players == record.players
    assert back.options.match_length == record.options.match_length
    assert back.start_score == record.start_score
    ours, theirs = replay(record)[-1], replay(back)[-1]
    assert [(o.winner, o.points) for o in theirs.games] == [
        (o.winner, o.points) for o in ours.games
    ]
    plays = [a for a in record.actions if isinstance(a, Play | Double | Take)]
    assert [a for a in back.actions if isinstance(a, Play | Double | Take)] == plays
    # a resignation comes back as one, before the roll that XG does not write
    assert sum(isinstance(a, Resign) for a in back.actions) == sum(
        o.reason in ("resign", "abandon", "timeout") for o in ours.games
    )


def test_the_low_level_reader_loads_our_files(tmp_path: Path) -> None:
    record = random_record(3, 5)
    path = tmp_path / "m.xg"
    path.write_bytes(record_to_xg(record))
    archive = xg_file.XgArchive.load(path)
    stream = archive.get("temp.xg")
    assert stream is not None and len(stream) % RECORD == 0
    header = xg_file.parse_header(stream, 0)
    assert header["match_length"] == 5 and header["version"] >= 24
    assert archive.get("temp.xgi") == stream[:RECORD] + stream[-RECORD:]
    kinds = [kind for _, kind in xg_file.iter_records(stream)]
    assert kinds[0] == 0 and kinds[1] == 1 and kinds.count(1) == kinds.count(4)


def test_money_session_uses_xgs_length() -> None:
    record = random_record(4, 0)
    stream = read_archive(record_to_xg(record))["temp.xg"]
    assert struct.unpack_from("<i", stream, 92)[0] == 99999
    assert xg_to_record(record_to_xg(record)).options.match_length == 0


def test_boards_round_trip() -> None:
    rng = random.Random(5)
    match = Match(TableOptions())
    while len(match.actions) < 400 and not match.state.over:
        match.push(random_action(match.state, rng))
        position = match.state.game.position
        assert from_frame(to_frame(position)) == position


@pytest.mark.parametrize("seed", range(6))
def test_xgp_round_trip(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    match = Match(TableOptions(match_length=7 if seed % 2 else 0))
    for _ in range(rng.randint(5, 60)):
        action = random_action(match.state, rng)
        if isinstance(action, Roll | Play):
            match.push(action)
    g = match.state.game
    rec = MatchIDRecord(
        cube_value=2 if seed % 3 else 1,
        cube_owner=seed % 2 if seed % 3 else None,
        player_on_roll=g.turn or 0,
        dice=(g.dice.d1, g.dice.d2) if g.dice else None,
        match_length=match.state.options.match_length,
        score=(seed % 5, 1) if match.state.options.match_length else (0, 0),
        jacoby=not match.state.options.match_length,
    )
    data = gnubg_to_xgp(g.position, rec, ("Eve", "Fay"))
    assert xgp_to_gnubg(data) == (g.position, rec)
    path = tmp_path / "p.xgp"
    path.write_bytes(data)
    assert xg_file.XgArchive.load(path).get("temp.xg") is not None


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda d: d[:100], "too short"),
        (lambda d: b"XXXX" + d[4:], "starts with"),
        (lambda d: d[:9000] + bytes([d[9000] ^ 1]) + d[9001:], "CRC-32"),
    ],
)
def test_a_damaged_file_is_refused(mangle: Any, message: str) -> None:
    data = record_to_xg(random_record(1, 3))
    with pytest.raises(InvalidNotationError, match=message):
        xg_to_record(mangle(data))


def test_a_table_whose_roll_off_winner_rolls_again_reads_back() -> None:
    """``opening`` ``reroll`` (issue #32): XG has no such rule, so a first game that
    starts with a double says it (an exact warning: the table is inferred); each game's
    roll-off, not in the file, comes back won 2-1 by its first mover, and a double
    before the starter's first roll stays there."""
    options = TableOptions(match_length=3, opening="reroll")
    m = Match(options, players=("Ana", "Bo"))
    for action in (
        *(Roll(0, Dice(5, 2)), Roll(0, Dice(4, 4)), Play(0, "24/20(2) 13/9(2)")),
        *(Roll(1, Dice(3, 1)), Play(1, "24/23 13/10"), Double(0), Drop(1)),
        *(Roll(1, Dice(2, 6)), Double(1), Take(0), Roll(1, Dice(6, 6))),
        Play(1, "24/18(2) 13/7(2)"),
    ):
        m.push(action)
    record = m.record()
    data = record_to_xg(record)
    rolloffs = {0: Roll(0, Dice(2, 1)), 7: Roll(1, Dice(1, 2))}
    expected = tuple(rolloffs.get(i, a) for i, a in enumerate(record.actions))
    back = xg_to_record(data)
    assert back.options == options and back.actions == expected
    (warning,) = import_warnings(back)
    assert warning.exact and warning.game == 1 and "opening 'reroll'" in warning.message
    told = xg_to_record(data, options=options)
    assert told.actions == expected and import_warnings(told) == ()
    with pytest.raises(InvalidNotationError, match="starts with 44, a double"):
        xg_to_record(data, options=TableOptions(match_length=3), strict=True)
