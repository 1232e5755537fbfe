"""Stock xgdatatools (Michael Petch's reader, packaged as ``xgparse``; LGPL, a dev
dependency, imported by tests only) reads every ``.xg`` gammon writes here.

The corpus: random matches and money sessions of every option set an XG file can
hold (beaver, raccoon, automatic doubles, Jacoby, Crawford, a cube limit, money and
match, resignations, abandons and timeouts) and every ``.mat`` of the test corpus.
For each file xgdatatools must open it, and its game headers, moves, dice, cube
actions and game footers must be our record's: the translation from XG's fields to
our words below is written from XG's published format (``xg_format.pas``), not
from gammon's writer.

And real files: the 8 ``.xg`` matches eXtreme Gammon wrote in ``tests/data/xg/``
read by gammon (strictly) as xgdatatools reads them, XG's own boards included.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from gammon import Dice
from gammon.match import (
    AcceptResign,
    Beaver,
    Double,
    Drop,
    Match,
    MatchRecord,
    Play,
    Raccoon,
    Resign,
    Roll,
    TableOptions,
    Take,
    replay,
)
from gammon.match.engine import apply
from gammon.match.formats import mat_to_record, record_to_xg, xg_to_record
from strategies import random_action

convertxg = pytest.importorskip("xgparse.convertxg", reason="xgparse is a dev dependency")
xgstruct = pytest.importorskip("xgparse.xgstruct", reason="xgparse is a dev dependency")

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mat" / "corpus"

OPTION_SETS = {
    "match-7": TableOptions(match_length=7),
    "match-5-no-crawford": TableOptions(match_length=5, crawford=False),
    "match-3-limit-8": TableOptions(match_length=3, cube_limit=8),
    "money": TableOptions(),
    "money-jacoby": TableOptions(jacoby=True),
    "money-beaver": TableOptions(beaver=True),
    "money-raccoon": TableOptions(beaver=True, raccoon=True, jacoby=True),
    "money-autodouble": TableOptions(automatic_doubles=2, beaver=True),
    "money-limit-16": TableOptions(cube_limit=16, automatic_doubles=1),
    # the roll-off's winner rolls again: a game may start with a double (issue #32)
    "match-5-reroll": TableOptions(match_length=5, opening="reroll"),
}


def random_record(options: TableOptions, seed: int) -> MatchRecord:
    """Random play, doubles and beavers often, a resignation now and then."""
    rng = random.Random(seed)
    match = Match(options, players=("Ana", "Bo"))
    while not match.state.over and len(match.state.games) < 4 and len(match.actions) < 1500:
        action = random_action(match.state, rng)
        if type(action).__name__ == "RejectResign":
            continue
        if match.state.game.phase == "opening" and options.automatic_doubles and rng.random() < 0.5:
            die = rng.randint(1, 6)
            action = Roll(0, Dice(die, die)) if isinstance(action, Roll) else action
        match.push(action)
    return match.record()


def raccoons() -> MatchRecord:
    """Two games of a money session: a raccoon taken, then a raccoon dropped."""
    match = Match(TableOptions(beaver=True, raccoon=True), players=("Ana", "Bo"))
    opening = [Roll(0, Dice(3, 1)), Play(0, "8/5 6/5")]
    for answer in (Take(0), Drop(0)):
        for action in (*opening, Double(1), Beaver(0), Raccoon(1), answer):
            match.push(action)
        if isinstance(answer, Take):
            match.push(Resign(1, 1))
            match.push(AcceptResign(0))
    return match.record()


def corpus() -> list[tuple[str, MatchRecord]]:
    out = [("raccoons", raccoons())]
    out += [
        (f"{name}-{seed}", random_record(options, seed))
        for name, options in OPTION_SETS.items()
        for seed in range(4)
    ]
    out += [
        (p.name, mat_to_record(p.read_text(encoding="utf-8"))) for p in sorted(CORPUS.glob("*.mat"))
    ]
    return out


RECORDS = corpus()

# --------------------------------------------------------------------------- XG's side


def _point(code: int) -> str:
    return "bar" if code >= 24 else "off" if code < 0 else str(code + 1)


def _xg_move(codes: tuple[int, ...]) -> str:
    steps = []
    for i in range(0, 8, 2):
        if codes[i] < 0:
            break
        steps.append(f"{_point(codes[i])}/{_point(codes[i + 1])}")
    return " ".join(steps)


def _xg_cube(rec: Any) -> list[str]:
    """A cube record in words (xg_format.pas: Take 0 no, 1 yes, 2 beaver; BeaverR 0 no,
    1 yes, 2 raccoon; RaccoonR 0 no, 1 yes)."""
    if rec.double != 1:
        return []
    words = ["double"]
    answer = {0: "drop", 1: "take"}
    if rec.take == 2:
        words.append("beaver")
        if rec.beaver_r == 2:
            words.append("raccoon")
            words.append(answer[rec.raccoon_r])
        else:
            words.append(answer[rec.beaver_r])
    else:
        words.append(answer[rec.take])
    return words


def xgdatatools_view(path: Path) -> dict[str, Any]:
    """What xgdatatools reads in a file, game by game."""
    view: dict[str, Any] = {"games": []}
    for rec in convertxg.convert_xg_to_py_dataclasses(str(path)):
        if isinstance(rec, xgstruct.HeaderMatchEntry):
            view["header"] = (
                rec.player1,
                rec.player2,
                rec.match_length,
                rec.jacoby,
                rec.beaver,
                rec.auto_double,
                rec.cube_limit,
            )
        elif isinstance(rec, xgstruct.HeaderGameEntry):
            game = {"score": (rec.score1, rec.score2), "autos": rec.number_of_auto_doubles}
            view["games"].append(game | {"turns": [], "end": None})
        elif isinstance(rec, xgstruct.MoveEntry):
            seat = 0 if rec.active_p == 1 else 1
            view["games"][-1]["turns"].append(("move", seat, rec.dice, _xg_move(rec.moves)))
        elif isinstance(rec, xgstruct.CubeEntry):
            seat = 0 if rec.active_p == 1 else 1
            view["games"][-1]["turns"].append(("cube", seat, _xg_cube(rec), 2 ** abs(rec.cube_b)))
        elif isinstance(rec, xgstruct.FooterGameEntry):
            winner = {1: 0, -1: 1}.get(rec.winner)
            view["games"][-1]["end"] = (winner, rec.points_won, rec.termination)
    return view


# --------------------------------------------------------------------------- ours


def _our_point(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


def our_view(record: MatchRecord) -> dict[str, Any]:
    """The same, from our record: the engine's replay of it."""
    o = record.options
    header = (
        record.players[0],
        record.players[1],
        o.match_length or 99999,
        o.jacoby,
        o.beaver,
        o.automatic_doubles > 0,
        (o.cube_limit or 1024).bit_length() - 1,
    )
    view: dict[str, Any] = {"header": header, "games": []}
    state = record.initial_state()
    cube_words: list[str] = []
    for action in record.actions:
        before, transition = state, apply(state, action)
        state = transition.state
        g = before.game
        kinds = {e.kind: e for e in transition.events}
        if not view["games"] or view["games"][-1]["number"] != g.number:
            view["games"].append(
                {"number": g.number, "score": before.score, "autos": 0, "turns": [], "end": None}
            )
        game = view["games"][-1]
        if "automatic_double" in kinds:
            game["autos"] += 1
        dance = kinds.get("no_move")
        if isinstance(action, Roll) and dance is not None and dance.player is not None:
            game["turns"].append(("move", dance.player, tuple(dance.data["dice"]), ""))
        elif isinstance(action, Play):
            assert g.dice is not None
            steps = g.position.parse_move(action.move, g.dice).steps
            text = " ".join(f"{_our_point(s.from_point)}/{_our_point(s.to_point)}" for s in steps)
            game["turns"].append(("move", action.player, (g.dice.d1, g.dice.d2), text))
        elif isinstance(action, Double):
            cube_words = ["double"]
            doubler, was = action.player, g.cube.value >> game["autos"]
        elif isinstance(action, Beaver | Raccoon | Take | Drop) and cube_words:
            cube_words.append(type(action).__name__.lower())
            if isinstance(action, Take | Drop):
                game["turns"].append(("cube", doubler, cube_words, was))
                cube_words = []
        if "game_over" in kinds:
            outcome = state.games[-1]
            reason = outcome.reason
            termination = (
                0
                if reason == "drop"
                else 100 + outcome.result
                if reason in ("resign", "abandon", "timeout")
                else outcome.result
            )
            game["end"] = (outcome.winner, outcome.points, termination)
            cube_words = []
    for game in view["games"]:
        del game["number"]
    return view


@pytest.mark.oracle
@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[n for n, _ in RECORDS])
def test_xgdatatools_reads_every_xg_we_write(
    name: str, record: MatchRecord, tmp_path: Path
) -> None:
    path = tmp_path / f"{name}.xg"
    path.write_bytes(record_to_xg(record))
    theirs = xgdatatools_view(path)
    ours = our_view(record)
    assert theirs["header"] == ours["header"]
    assert len(theirs["games"]) == len(ours["games"])
    for n, (their, our) in enumerate(zip(theirs["games"], ours["games"], strict=True), 1):
        assert their == our, f"game {n}"
    # and gammon reads its own file back to the same decisions and results
    back = xg_to_record(path.read_bytes())
    kinds = Play | Double | Beaver | Raccoon | Take | Drop
    assert [a for a in back.actions if isinstance(a, kinds)] == [
        a for a in record.actions if isinstance(a, kinds)
    ]
    results = [(o.winner, o.points) for o in replay(record)[-1].games]
    assert [(o.winner, o.points) for o in replay(back)[-1].games] == results


def test_the_corpus_holds_every_cube_action_xg_can() -> None:
    """The oracle sees beavers, raccoons, automatic doubles, drops and resignations."""
    seen = set()
    for _, record in RECORDS:
        view = our_view(record)
        for game in view["games"]:
            seen.update(w for kind, *rest in game["turns"] if kind == "cube" for w in rest[1])
            seen.add("autodouble" if game["autos"] else "")
            if game["end"] and game["end"][2] >= 100:
                seen.add("resign")
    assert {"beaver", "raccoon", "take", "drop", "autodouble", "resign"} <= seen


# --------------------------------------------------------------------------- real files

#: Real matches written by eXtreme Gammon (tests/data/xg/README.txt says where from).
REAL = sorted((Path(__file__).resolve().parents[1] / "data" / "xg").glob("*.xg"))


def _frame(position: Any) -> tuple[int, ...]:
    """XG's 26 signed bytes for a position seen from its player on roll (xg_format.pas:
    0 the opponent's bar, negative; 1..24 the points, the opponent's negative; 25 the
    mover's bar), written here from the format, not taken from gammon's writer."""
    me, them = position.player, position.opponent
    return (-them[25], *(me[i] - them[25 - i] for i in range(1, 25)), me[25])


def _p1(position: Any, seat: int) -> Any:
    """A mover's position seen from XG's player 1 (our seat 0): a move record's
    PositionI is player 1's board, its PositionEnd the mover's (as XG writes them)."""
    return position if seat == 0 else position.flipped()


def _ending(termination: int) -> str:
    """xg_format.pas: 0 drop, 1..3 on the board, +100 a resignation (XG also writes
    104, a resignation of no stated size, for the last game of a match)."""
    return "drop" if termination == 0 else "board" if termination < 100 else "resign"


def xg_real_view(path: Path) -> dict[str, Any]:
    """What xgdatatools reads in a real file: every played move as XG's boards before
    and after it, a roll left unplayed, each double with its answers, each game's end;
    and XG's equities for every analysed move and cube decision."""
    view: dict[str, Any] = {"games": [], "moves": [], "cubes": []}
    for rec in convertxg.convert_xg_to_py_dataclasses(str(path)):
        if isinstance(rec, xgstruct.HeaderMatchEntry):
            view["header"] = (rec.player1, rec.player2, rec.match_length, rec.crawford)
        elif isinstance(rec, xgstruct.HeaderGameEntry):
            view["games"].append({"score": (rec.score1, rec.score2), "turns": [], "end": None})
        elif isinstance(rec, xgstruct.MoveEntry):
            seat = 0 if rec.active_p == 1 else 1
            turns = view["games"][-1]["turns"]
            if not rec.played:
                turns.append(("roll", seat, rec.dice))
                continue
            turns.append(("move", seat, rec.dice, rec.position_i, rec.position_end))
            best = rec.data_moves
            if best is not None and 0 < best.n_moves <= 32:
                view["moves"].append([round(e[6], 6) for e in best.eval[: best.n_moves]])
        elif isinstance(rec, xgstruct.CubeEntry):
            seat = 0 if rec.active_p == 1 else 1
            if rec.double == 1:
                turns = view["games"][-1]["turns"]
                turns.append(("cube", seat, _xg_cube(rec), 2 ** abs(rec.cube_b)))
            d = rec.doubled
            if d is not None and rec.analyze_c >= 0:  # AnalyzeC: -1 not analysed
                view["cubes"].append(
                    (round(d.equ_b, 6), round(d.equ_double, 6), round(d.equ_drop, 6))
                )
        elif isinstance(rec, xgstruct.FooterGameEntry):
            winner = {1: 0, -1: 1}.get(rec.winner)
            view["games"][-1]["end"] = (winner, rec.points_won, _ending(rec.termination))
    return view


def gammon_real_view(record: MatchRecord) -> dict[str, Any]:
    """The same from gammon's record, through the engine's replay of it."""
    o = record.options
    view: dict[str, Any] = {
        "header": (*record.players, o.match_length, o.crawford),
        "games": [],
        "moves": [],
        "cubes": [],
    }
    state = record.initial_state()
    pending: Roll | None = None  # a roll not yet played
    words: list[str] = []
    for action in record.actions:
        before, transition = state, apply(state, action)
        state = transition.state
        g = before.game
        kinds = {e.kind: e for e in transition.events}
        if not view["games"] or view["games"][-1]["number"] != g.number:
            view["games"].append(
                {"number": g.number, "score": before.score, "turns": [], "end": None}
            )
        turns = view["games"][-1]["turns"]
        if isinstance(action, Roll):
            dance = kinds.get("no_move")
            if dance is not None and dance.player is not None:
                seat, dice = dance.player, tuple(dance.data["dice"])
                turns.append(
                    ("move", seat, dice, _frame(_p1(g.position, seat)), _frame(g.position))
                )
            else:
                pending = action
        elif isinstance(action, Play):
            assert g.dice is not None
            move = g.position.parse_move(action.move, g.dice)
            after = _frame(g.position.apply(move).flipped())
            dice = (g.dice.d1, g.dice.d2)
            before = _frame(_p1(g.position, action.player))
            turns.append(("move", action.player, dice, before, after))
            pending = None
        elif isinstance(action, Double):
            words, doubler, was = ["double"], action.player, g.cube.value
        elif isinstance(action, Beaver | Raccoon | Take | Drop) and words:
            words.append(type(action).__name__.lower())
            if isinstance(action, Take | Drop):
                turns.append(("cube", doubler, words, was))
                words = []
        if "game_over" in kinds:
            if pending is not None:
                turns.append(("roll", pending.player, (pending.dice.d1, pending.dice.d2)))
                pending = None
            outcome = state.games[-1]
            reason = outcome.reason
            ending = "drop" if reason == "drop" else "board" if reason == "bear_off" else "resign"
            view["games"][-1]["end"] = (outcome.winner, outcome.points, ending)
            words = []
    for game in view["games"]:
        del game["number"]
    for found in record.meta.get("xg_analysis", []):
        if found["kind"] == "move":
            view["moves"].append([c["equity"] for c in found["candidates"]])
        else:
            view["cubes"].append((found["no_double"], found["double_take"], found["double_drop"]))
    return view


def test_every_real_xg_file_is_read() -> None:
    """The count of real files the test below reads (all that were found)."""
    assert len(REAL) == 8


@pytest.mark.oracle
@pytest.mark.parametrize("path", REAL, ids=[p.stem for p in REAL])
def test_real_xg_files_read_as_xgdatatools_reads_them(path: Path) -> None:
    """Every move (XG's own boards before and after it), roll, cube action, game end
    and XG equity of a real file, as gammon reads it strictly (nothing left out)."""
    record = xg_to_record(path.read_bytes(), strict=True)
    theirs, ours = xg_real_view(path), gammon_real_view(record)
    assert ours["header"] == theirs["header"]
    assert len(ours["games"]) == len(theirs["games"])
    for n, (their, our) in enumerate(zip(theirs["games"], ours["games"], strict=True), 1):
        assert our == their, f"game {n}"
    assert ours["moves"] == theirs["moves"]
    assert ours["cubes"] == theirs["cubes"]
