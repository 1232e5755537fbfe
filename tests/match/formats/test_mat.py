"""The .mat exporter and importer: round trips, sample files, leniency and errors."""

from __future__ import annotations

import functools
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import Dice, IllegalActionError, InvalidNotationError, Position
from gammon.match import (
    Abandon,
    AcceptResign,
    Beaver,
    Double,
    Drop,
    Match,
    MatchRecord,
    Play,
    Raccoon,
    RejectResign,
    Resign,
    Roll,
    TableOptions,
    Take,
    Timeout,
    read_log,
    replay,
    write_log,
)
from gammon.match.actions import Action
from gammon.match.formats import convert_file, mat_to_record, match_to_mat
from gammon.match.formats.notes import import_warnings, unchecked_games
from strategies import match_records

DATA = Path(__file__).resolve().parents[2] / "data"
SAMPLES = sorted((DATA / "mat").glob("*.mat"))

# --------------------------------------------------------------------------- comparing records


def summary(record: MatchRecord) -> tuple[object, ...]:
    """What a round trip must keep: every checker play (by the position it leaves, seen from
    player 0), every game's winner, points and final cube, the score, and whether it is over."""
    states = replay(record)
    plays = []
    for before, action in zip(states, record.actions, strict=False):
        if isinstance(action, Play):
            g = before.game
            assert g.dice is not None
            after = g.position.parse_move(action.move, g.dice).position_after()
            seen = after.flipped() if action.player == 0 else after
            plays.append((g.number, action.player, seen.position_id()))
    final = states[-1]
    games = [(o.number, o.winner, o.points, o.cube) for o in final.games]
    return tuple(plays), tuple(games), final.score, final.over


def assert_round_trip(
    record: MatchRecord, *, inferable: bool = True, thorough: bool = True
) -> MatchRecord:
    text = match_to_mat(record)
    back = mat_to_record(text, options=record.options)
    expected = summary(record)
    assert summary(back) == expected
    assert back.players == record.players
    if thorough:
        again = match_to_mat(back)
        assert match_to_mat(mat_to_record(again, options=record.options)) == again  # a fixed point
        assert read_log(write_log(back)) == back
    if inferable:
        inferred = mat_to_record(text)
        assert inferred.options == record.options
        assert inferred.actions == back.actions
    return back


# --------------------------------------------------------------------------- building matches


def pick(position: Position, dice: Dice, rng: random.Random) -> str:
    """A seeded random legal move."""
    moves = position.legal_moves(dice)
    return str(moves[rng.randrange(len(moves))])


class Script:
    """Plays a match with seeded dice and the quick policy, with cube and end actions by hand."""

    def __init__(self, options: TableOptions, seed: int, players: tuple[str, str] = ("Ann", "Bob")):
        self.match = Match(options, players=players)
        self.rng = random.Random(seed)

    @property
    def seat(self) -> int:
        turn = self.match.state.game.turn
        assert turn is not None
        return turn

    @property
    def number(self) -> int:
        return self.match.state.game.number

    def push(self, *actions: Action) -> None:
        for action in actions:
            self.match.push(action)

    def turn(self) -> None:
        """The player to act rolls (the roll-off at the start of a game) and plays."""
        g = self.match.state.game
        seat = g.turn if g.phase == "turn" and g.turn is not None else 0
        self.push(Roll(seat, Dice(self.rng.randint(1, 6), self.rng.randint(1, 6))))
        g = self.match.state.game
        if g.phase == "moving":
            assert g.dice is not None and g.turn is not None
            self.push(Play(g.turn, pick(g.position, g.dice, self.rng)))

    def turns(self, n: int) -> None:
        number = self.number
        for _ in range(n):
            if self.number != number or self.match.state.over:
                return
            self.turn()
        while self.match.state.game.phase == "opening":
            self.turn()

    def finish(self) -> None:
        """Play the game to its end on the board."""
        number = self.number
        for _ in range(2000):
            if self.number != number or self.match.state.over:
                return
            self.turn()
        raise AssertionError("game did not end")

    def double(self, *answers: type[Action]) -> None:
        """The player on turn doubles; the answers alternate between the two players."""
        doubler = self.seat
        self.push(Double(doubler))
        for i, answer in enumerate(answers):
            self.push(answer(1 - doubler if i % 2 == 0 else doubler))

    def resign(self, level: int) -> None:
        self.push(Resign(self.seat, level), AcceptResign(1 - self.seat))

    def record(self) -> MatchRecord:
        return self.match.record()


def outcomes(record: MatchRecord) -> list[tuple[str, int, int]]:
    return [(o.reason, o.points, o.cube) for o in replay(record)[-1].games]


@functools.cache
def cube_match(seed: int = 11) -> MatchRecord:
    """A 7-point match: double/take, redouble/drop, a doubled game played out, resignations
    up to the Crawford game, a single lost in it, then doubled games played out."""
    s = Script(TableOptions(match_length=7), seed=seed)
    s.turns(4)
    s.double(Take)
    s.turns(1)
    s.double(Drop)  # the owner, now on turn, redoubles
    s.turns(3)
    s.double(Take)
    s.finish()
    while not s.match.state.game.crawford and not s.match.state.over:
        s.turns(2)
        s.resign(1)
    if not s.match.state.over:
        s.turns(3)
        s.resign(1)
    while not s.match.state.over:
        s.turns(2)
        s.double(Take)
        s.finish()
    return s.record()


def crawford_games(record: MatchRecord) -> list[int]:
    """The numbers of the games that were played as the Crawford game."""
    return sorted({s.game.number for s in replay(record) if s.game.crawford})


@functools.cache
def money_session() -> MatchRecord:
    """Beavers and a raccoon, resignations, an abandon and a timeout, over several games."""
    s = Script(TableOptions(beaver=True, raccoon=True), seed=3, players=("Mike", "Nora"))
    s.turns(2)
    s.double(Beaver, Take)
    s.turns(2)
    s.resign(1)
    s.turns(2)
    s.double(Beaver, Raccoon, Take)
    s.turns(2)
    s.push(Abandon(1 - s.seat))  # the player not on turn walks away
    s.turns(1)
    s.double(Beaver, Drop)
    s.turns(2)
    s.double(Take)
    s.finish()
    s.turns(2)
    s.push(Timeout(s.seat))
    s.turns(2)
    return s.record()  # the last game is still going on


@functools.cache
def resignations() -> MatchRecord:
    """Resignations of every level, a rejected one, abandons (one before the roll-off)."""
    s = Script(TableOptions(match_length=15), seed=11)
    s.turns(3)
    s.resign(1)
    s.turns(3)
    s.double(Take)
    s.turns(1)
    s.resign(2)
    s.turns(2)
    s.push(Resign(s.seat, 1), RejectResign(1 - s.seat))
    s.turns(2)
    s.resign(3)
    s.push(Abandon(1))  # before the roll-off
    s.turns(2)
    s.push(
        Roll(s.seat, Dice(5, 3)), Resign(s.seat, 2), AcceptResign(1 - s.seat)
    )  # rolled, then resigned
    s.turns(2)
    s.push(Abandon(s.seat))
    return s.record()


@functools.cache
def dances_and_bear_off() -> MatchRecord:
    """A 1-point match (seed found once) with dances and a bear-off move that hits."""
    s = Script(TableOptions(match_length=1), seed=139)
    s.finish()
    return s.record()


HAND_BUILT = {
    "cube_match": cube_match,
    "money_session": money_session,
    "resignations": resignations,
    "dances_and_bear_off": dances_and_bear_off,
}


@pytest.mark.parametrize("name", sorted(HAND_BUILT))
def test_hand_built_matches_round_trip(name: str) -> None:
    assert_round_trip(HAND_BUILT[name]())


def test_the_hand_built_matches_cover_what_they_claim() -> None:
    cube = outcomes(cube_match())
    assert {"drop", "bear_off", "resign"} <= {reason for reason, _, _ in cube}
    assert crawford_games(cube_match()) == [3]
    assert len(cube) == 4  # a game after the Crawford game
    money = money_session()
    kinds = {type(a) for a in money.actions}
    assert {Beaver, Raccoon, Abandon, Timeout} <= kinds
    assert not replay(money)[-1].over
    resigned = outcomes(resignations())
    assert [r for r, _, _ in resigned].count("resign") == 4
    assert {p for r, p, _ in resigned if r == "resign"} == {1, 2, 3, 4}
    text = match_to_mat(dances_and_bear_off())
    assert re.search(r"\d\d:(\s{2,}|\s*$)", text, re.MULTILINE)  # a dance: dice alone
    assert re.search(r"\b\d+/0\b.*\*|\*.*\b\d+/0\b", text)  # a bear-off move that hits


def test_what_the_exporter_writes_for_cube_actions_and_results() -> None:
    text = match_to_mat(money_session())
    assert text.startswith('; [Beaver "On"]\n 0 point match\n\n Game 1\n Mike : 0 ')
    assert "Doubles => 4" in text and "Doubles => 8" in text  # the beaver, the raccoon
    assert " Takes" in text and " Drops" in text
    assert "and the match" not in text
    cube = match_to_mat(cube_match())
    assert cube.startswith(" 7 point match\n\n Game 1\n Ann : 0")
    assert cube.rstrip().endswith("and the match")
    assert re.search(r"^ {6}Wins|^ {39}Wins", cube, re.MULTILINE)


def test_a_winner_is_written_in_their_own_column() -> None:
    s = Script(TableOptions(match_length=3), seed=1)
    s.turns(2)
    loser = s.seat
    s.resign(1)
    lines = match_to_mat(s.record()).splitlines()
    wins = next(line for line in lines if "Wins" in line)
    assert wins == (" " * 39 if loser == 0 else " " * 6) + "Wins 1 point"


# --------------------------------------------------------------------------- property


OPTION_SETS = [
    (TableOptions(match_length=1), True),
    (TableOptions(match_length=3), True),
    (TableOptions(match_length=2, crawford=False), True),
    (TableOptions(jacoby=True, cube_limit=8), True),
    (TableOptions(beaver=True, raccoon=True), False),
    (TableOptions(match_length=3, first_move="alternate"), False),
    (TableOptions(match_length=3, first_move="loser"), False),
    (TableOptions(end_setting="mars"), False),
    (TableOptions(match_length=3, opening="reroll"), True),  # the tag says it
    (TableOptions(beaver=True, cube_limit=8, opening="reroll"), True),
]


@st.composite
def random_matches(draw: st.DrawFn) -> tuple[MatchRecord, bool]:
    """A short match of random legal actions, and whether its table can be inferred."""
    options, inferable = draw(st.sampled_from(OPTION_SETS))
    return draw(match_records(options)), inferable


@settings(max_examples=20, deadline=None)
@given(random_matches())
def test_random_matches_round_trip(case: tuple[MatchRecord, bool]) -> None:
    record, inferable = case
    assert_round_trip(record, inferable=inferable, thorough=False)


# --------------------------------------------------------------------------- sample files


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_files_import_and_replay(path: Path) -> None:
    record = mat_to_record(path.read_bytes().decode("utf-8"))
    final = replay(record)[-1]
    assert final.games
    again = mat_to_record(match_to_mat(record))
    assert summary(again) == summary(record)


def test_the_samples_are_what_the_readme_says() -> None:
    assert {p.name for p in SAMPLES} >= {"gnubg_cube.mat", "xg_export.mat", "money_session.mat"}
    assert "written by hand" in (DATA / "mat" / "README.txt").read_text(encoding="utf-8")
    xg = (DATA / "mat" / "xg_export.mat").read_bytes()
    assert b"\r\n" in xg and xg.startswith(b"; [Site")
    record = mat_to_record(xg.decode("utf-8"))
    assert record.players == ("Xavier", "Anna")
    assert record.meta["countries"] == ["FRA", "USA"]
    assert record.meta["tags"]["Site"] == "eXtreme Gammon"
    gnubg = replay(mat_to_record((DATA / "mat" / "gnubg_cube.mat").read_text(encoding="utf-8")))
    assert gnubg[-1].over and gnubg[-1].score == (5, 1)
    assert crawford_games(mat_to_record((DATA / "mat" / "gnubg_cube.mat").read_text())) == [5]
    money = mat_to_record((DATA / "mat" / "money_session.mat").read_text(encoding="utf-8"))
    assert money.options == TableOptions(beaver=True)
    assert replay(money)[-1].score == (3, 4)


def test_tiny_mat_imports() -> None:
    record = mat_to_record((DATA / "tiny.mat").read_text(encoding="utf-8"))
    assert record.players == ("Alice", "Bob")
    assert record.options == TableOptions(match_length=3)
    assert record.actions == (
        Roll(0, Dice(3, 1)),
        Play(0, "8/5 6/5"),
        Roll(1, Dice(4, 2)),
        Play(1, "13/11 13/9"),
        Roll(0, Dice(6, 2)),
        Play(0, "24/18 13/11"),
        Double(1),
        Drop(0),
    )
    final = replay(record)[-1]
    assert final.score == (0, 1) and final.games[0].reason == "drop"
    assert_round_trip(record)


# --------------------------------------------------------------------------- leniency

TINY_BODY = """\
 Game 1
 Alice : 0                            Bob : 0
  1) 31: 8/5 6/5                      42: 13/11 13/9
"""


def test_line_ends_bom_and_header_forms() -> None:
    plain = mat_to_record(" 3 point match\n\n" + TINY_BODY)
    crlf = mat_to_record("\ufeff 3 point match\r\n\r\n" + TINY_BODY.replace("\n", "\r\n"))
    assert crlf.actions == plain.actions
    for header in (" 0 point match", "Money session", " Unlimited game", "money game"):
        assert mat_to_record(f"{header}\n\n{TINY_BODY}").options == TableOptions()
    assert mat_to_record(" 7 points match\n" + TINY_BODY).options.match_length == 7


def test_move_notation_variants() -> None:
    record = dances_and_bear_off()
    text = match_to_mat(record)
    spelled = re.sub(r"\b25/", "bar/", text)
    spelled = re.sub(r"/0\b", "/off", spelled)
    assert spelled != text
    assert summary(mat_to_record(spelled)) == summary(record)
    starless = text.replace("*", "")
    assert summary(mat_to_record(starless)) == summary(record)


def test_a_dance_may_be_left_blank() -> None:
    record = dances_and_bear_off()
    text = match_to_mat(record)
    blank = re.sub(r"[1-6][1-6]:(?=\s{2,}[1-6][1-6]:|\s*$)", "   ", text, flags=re.MULTILINE)
    assert blank != text
    assert summary(mat_to_record(blank)) == summary(record)


def test_country_codes_names_and_xg_tags() -> None:
    text = (
        '; [Site "eXtreme Gammon"]\n; [Crawford "Off"]\n; [Variation "NackGammon"]\n'
        " 5 point match\n\n Game 1\n Al(USA) : 0                          Bea(GBR) : 0\n"
    )
    record = mat_to_record(text)
    assert record.players == ("Al", "Bea")
    assert record.meta["countries"] == ["USA", "GBR"]
    assert record.options == TableOptions(match_length=5, crawford=False, variant="nackgammon")
    with pytest.raises(InvalidNotationError, match="unsupported variation"):
        mat_to_record(text.replace("NackGammon", "LongGammon"))


def test_beaver_words_and_a_drop_written_only_as_wins() -> None:
    text = """\
 0 point match

 Game 1
 A : 0                                B : 0
  1) 31: 8/5 6/5                       Doubles => 2
  2)  Beavers => 4                     Takes
  3)                                  42: 13/11 13/9
  4)  Doubles => 8
      Wins 4 points
"""
    record = mat_to_record(text)
    assert record.options == TableOptions(beaver=True)
    assert record.actions[2:5] == (Double(1), Beaver(0), Take(1))
    assert record.actions[-2:] == (Double(0), Drop(1))  # no " Drops": the Wins line says it
    assert replay(record)[-1].score == (4, 0)


RIGHT = " " * 38


def test_a_wins_line_with_no_end_on_the_board_is_a_resignation() -> None:
    base = " 5 point match\n\n" + TINY_BODY  # Alice (player 0) is on turn
    single = mat_to_record(base + RIGHT + " Wins 1 point\n")
    assert single.actions[-2:] == (Resign(0, 1), AcceptResign(1))
    gammon = mat_to_record(base + RIGHT + " Wins 2 points\n")
    assert gammon.actions[-2:] == (Resign(0, 2), AcceptResign(1))
    backgammon = mat_to_record(base + RIGHT + " Wins 3 points\n")
    assert backgammon.actions[-2:] == (Resign(0, 3), AcceptResign(1))
    # a roll written without a move, then the result: rolled, then resigned
    rolled = mat_to_record(base + "  2) 62:\n" + RIGHT + " Wins 1 point\n")
    assert rolled.actions[-3:] == (Roll(0, Dice(6, 2)), Resign(0, 1), AcceptResign(1))
    # nothing written at all: the loser won the roll-off with 2-1 and resigned
    empty = mat_to_record(
        " 5 point match\n\n Game 1\n A : 0    B : 0\n" + RIGHT + " Wins 2 points\n"
    )
    assert empty.actions == (Roll(0, Dice(2, 1)), Resign(0, 2), AcceptResign(1))
    # an abandon by the player not on turn: scored from the board
    record = Match(TableOptions(match_length=5))
    for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Abandon(0)):
        record.push(action)
    text = match_to_mat(record.record())
    assert text.rstrip().endswith("Wins 3 points")
    assert mat_to_record(text).actions[-1] == Abandon(0)


def test_the_winner_comes_from_the_next_score_then_the_match_then_the_column() -> None:
    head = " 3 point match\n\n" + TINY_BODY  # Alice is on turn
    by_score = head + "      Wins 1 point\n\n Game 2\n Alice : 0       Bob : 1\n"
    assert replay(mat_to_record(by_score))[-1].score == (0, 1)  # not the column's player 0
    by_column = head + "      Wins 1 point\n"
    # Bob resigned after his move, not on roll: gnubg reads a resignation; our rules take
    # it after his roll, so his move is left out
    record = mat_to_record(by_column)
    assert record.actions[-3:] == (Roll(1, Dice(4, 2)), Resign(1, 1), AcceptResign(0))
    assert replay(record)[-1].score == (1, 0)
    with pytest.raises(InvalidNotationError, match="player 0 wins 4 points, which neither"):
        mat_to_record(head + "      Wins 4 points\n", strict=True)  # nothing scores 4 at cube 1
    # the lenient reader counts 3, as gnubg does, and says so
    lenient = mat_to_record(head + "      Wins 4 points\n")
    assert replay(lenient)[-1].score == (3, 0)
    (warning,) = import_warnings(lenient)
    assert warning.line == 6 and warning.game == 1 and "counted 3 points" in warning.message
    assert unchecked_games(lenient) == {1}
    second = "\n Game 2\n Alice : 0       Bob : 1\n" + TINY_BODY.split("\n", 2)[2]
    by_match = head + "  2) 62: 24/18 13/11      Doubles => 2\n  3)  Drops\n" + second
    by_match += "      Wins 2 points and the match\n"  # only Bob reaches 3
    final = replay(mat_to_record(by_match))[-1]
    assert final.winner == 1 and final.score == (0, 3)


def test_crawford_off_and_jacoby_are_tried_when_the_file_needs_them() -> None:
    s = Script(TableOptions(match_length=3, crawford=False), seed=5)
    for _ in range(3):
        s.turns(2)
        s.double(Drop)
    record = s.record()
    with pytest.raises(IllegalActionError, match="Crawford"):
        replay(replace(record, options=TableOptions(match_length=3)))
    text = match_to_mat(record)
    assert '; [Crawford "Off"]' in text
    untagged = re.sub(r"^; \[Crawford.*\n", "", text, flags=re.MULTILINE)
    assert mat_to_record(untagged).options == record.options

    j = Script(TableOptions(jacoby=True), seed=2)
    j.turns(2)
    j.double(Take)
    j.finish()
    j.turns(2)
    j.resign(2)  # a gammon with the cube centred counts 1 under Jacoby
    text = match_to_mat(j.record())
    assert '; [Jacoby "On"]' in text
    untagged = re.sub(r"^; \[Jacoby.*\n", "", text, flags=re.MULTILINE)
    inferred = mat_to_record(untagged)
    assert summary(inferred) == summary(j.record())


def test_first_rolls_that_are_doubles() -> None:
    s = Script(TableOptions(match_length=5, first_move="loser"), seed=4)
    s.turns(2)
    s.resign(1)
    s.push(Roll(s.seat, Dice(4, 4)))
    g = s.match.state.game
    assert g.dice is not None
    s.push(Play(s.seat, pick(g.position, g.dice, s.rng)))
    s.turns(2)
    record = s.record()
    text = match_to_mat(record)
    assert mat_to_record(text).options == record.options  # the "loser" rule is inferred
    with pytest.raises(InvalidNotationError, match="starts with 44, a double"):
        mat_to_record(text, options=TableOptions(match_length=5), strict=True)
    opening = " 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 33: 8/5(2) 6/3(2)\n"
    # game 1 starting with a double: a table whose roll-off winner rolls again (issue #32),
    # its roll-off (not in the file) won 2-1; every move kept, the game checked
    for strict in (False, True):
        record = mat_to_record(opening, strict=strict)
        assert record.options == TableOptions(match_length=3, opening="reroll")
        assert record.actions == (
            Roll(0, Dice(2, 1)),
            Roll(0, Dice(3, 3)),
            Play(0, "8/5(2) 6/3(2)"),
        )
        (warning,) = import_warnings(record)
        assert warning.exact and warning.line == 5 and warning.game == 1
        assert re.match(r"line 5: game 1 starts with 33, a double.*'reroll'", warning.message)
        assert unchecked_games(record) == frozenset()
    # a table that plays the roll-off's dice cannot: refused, or warned and left out
    plain = TableOptions(match_length=3)
    with pytest.raises(InvalidNotationError, match=r"line 5: game 1, move 1 \(A\).*a double"):
        mat_to_record(opening, options=plain, strict=True)
    (warning,) = import_warnings(mat_to_record(opening, options=plain))
    assert re.match(r"line 5: game 1, move 1 \(A\).*a double.*not replayed", warning.message)
    assert not warning.exact


def test_an_opening_reroll_match_round_trips() -> None:
    """A table whose roll-off winner rolls again (issue #32): the .mat leaves the
    roll-offs out and says the rule in gammon's ``; [Opening "Reroll"]`` tag, so it reads
    back with its options, every move and cube action where it was (the starter's double
    before its first roll too); the roll-offs come back won 2-1 by each game's starter."""
    s = Script(TableOptions(match_length=5, opening="reroll"), seed=8)
    s.push(Roll(0, Dice(5, 2)), Roll(0, Dice(4, 4)))
    s.push(Play(0, "24/20(2) 13/9(2)"))
    s.turns(3)
    s.resign(1)
    s.push(Roll(0, Dice(1, 6)), Double(1), Take(0))  # player 1 starts, and doubles at once
    s.turns(4)
    s.resign(2)
    s.turns(6)
    record = s.record()
    text = match_to_mat(record)
    assert text.startswith('; [Opening "Reroll"]\n')
    assert (
        "  1) 44: 24/20 24/20 13/9 13/9" in text
        and "  1)                                   Doubles => 2" in text
    )
    back = assert_round_trip(record)
    states = replay(back)
    rolloffs = [
        a for a, before in zip(back.actions, states, strict=False) if before.game.phase == "opening"
    ]
    assert rolloffs == [Roll(0, Dice(2, 1)), Roll(1, Dice(1, 2)), Roll(0, Dice(2, 1))]
    assert [(o.winner, o.points, o.cube) for o in states[-1].games] == [(1, 1, 1), (0, 4, 2)]
    assert import_warnings(back) == ()
    # without the tag, game 1's double says it (an exact warning: the table was inferred)
    untagged = mat_to_record(text.split("\n", 1)[1])
    assert untagged.options == record.options and untagged.actions == back.actions
    assert [w.exact for w in import_warnings(untagged)] == [True]


# --------------------------------------------------------------------------- errors


#: Files the rules refuse: the strict reader raises, the lenient one warns and leaves out.
PLAY_ERRORS = [
    (
        " 3 point match\n\n Game 1\n A : 0            B : 0\n  1) 31: 8/4 6/5\n",
        r"line 5: game 1, move 1 \(A\): '31: 8/4 6/5': illegal move",
    ),
    (
        " 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: 8/5 6/5\n  2) 42: 8/4 6/4\n",
        r"line 5: game 1, move 1 \(B\): blank turn: .* every roll can be played",
    ),
    (
        " 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: 8/5 6/5       Takes\n",
        r"line 5: game 1, move 1 \(B\): 'Takes': player 1 cannot take now",
    ),
    (
        " 3 point match\n\n Game 1\n A : 0     B : 0\n  1)  Doubles => 2\n",
        r"line 5: game 1, move 1 \(A\)",
    ),
]


@pytest.mark.parametrize(("text", "message"), PLAY_ERRORS)
def test_the_lenient_reader_warns_where_the_strict_one_refuses(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        mat_to_record(text, strict=True)
    record = mat_to_record(text)
    (warning,) = import_warnings(record)
    assert re.match(message, warning.message) and warning.line == 5
    assert unchecked_games(record) == {1}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            " 3 point match\n\n Game 1\n A : 0            B : 0\n  1) 31 8/5 6/5\n",
            r"line 5: '31 8/5 6/5': expected dice",
        ),
        (" 3 point match\n\n Game 1\n A : 0     B : 0\n what is this\n", "line 5: 'what is this'"),
        ("hello\n", "line 1: 'hello': expected the 'N point match' header"),
        (
            " 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n"
            "\n Game 2\n A : 2     B : 0\n  1) 31: 8/5 6/5\n",
            "line 8: game 2 starts at 2-0, but the games before it give 1-0",
        ),
        (
            " 3 point match\n\n Game 1\n A : 0   B : 0\n      Wins 1 point\n\n Game 2\n A : 1   B : 0\n"
            "      Wins 1 point\n\n Game 3\n A : 2   B : 0\n"
            "      Wins 1 point and the match\n\n Game 4\n A : 3   B : 0\n",
            "game 4 comes after the end of the match",
        ),
        (
            " 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: 8/5 6/5\n\n Game 2\n",
            "game 1 has no 'Wins' line",
        ),
    ],
)
def test_errors_name_the_line(text: str, message: str) -> None:
    """A file whose layout (or match) is wrong: both readers refuse it."""
    for strict in (True, False):
        with pytest.raises(InvalidNotationError, match=message):
            mat_to_record(text, strict=strict)


def test_a_header_alone_is_an_empty_match() -> None:
    assert mat_to_record(" 3 point match\n\n").actions == ()
    assert match_to_mat(Match(TableOptions(match_length=3)).record()) == " 3 point match\n\n"


# --------------------------------------------------------------------------- convert_file


def test_convert_file_in_every_direction(tmp_path: Path) -> None:
    record = cube_match()
    log = tmp_path / "match.jsonl"
    log.write_text(write_log(record), encoding="utf-8")
    line = convert_file(log, tmp_path / "match.mat")
    assert line.endswith("actions") and "7-point match" in line and "Ann vs Bob" in line
    assert "\n" not in line
    back = tmp_path / "back.log"
    convert_file(tmp_path / "match.mat", back)
    assert summary(read_log(back.read_text(encoding="utf-8"))) == summary(record)
    convert_file(tmp_path / "match.mat", tmp_path / "match.sgf")
    assert (tmp_path / "match.sgf").read_text(encoding="utf-8").startswith("(;FF[4]GM[6]")
    convert_file(DATA / "mat" / "xg_export.mat", tmp_path / "xg.txt")
    assert "Xavier" in (tmp_path / "xg.txt").read_text(encoding="utf-8")
    latin = tmp_path / "latin.mat"
    latin.write_bytes((" 3 point match\n\n" + TINY_BODY.replace("Alice", "Zoë")).encode("latin-1"))
    assert "Zoë vs Bob" in convert_file(latin, tmp_path / "latin.jsonl")
    # SGF is read too
    convert_file(tmp_path / "match.sgf", tmp_path / "from_sgf.jsonl")
    assert summary(read_log((tmp_path / "from_sgf.jsonl").read_text(encoding="utf-8"))) == summary(
        record
    )
    (tmp_path / "x.pdf").write_text("%PDF", encoding="utf-8")
    with pytest.raises(InvalidNotationError, match="cannot read"):
        convert_file(tmp_path / "x.pdf", tmp_path / "x.mat")
    with pytest.raises(InvalidNotationError, match="cannot write"):
        convert_file(log, tmp_path / "x.pdf")


# --------------------------------------------------------------------------- what real files do


def test_drops_and_wins_on_one_row() -> None:
    """gnubg's layout when the left player drops: the winner's Wins in the right cell."""
    text = " 3 point match\n\n" + TINY_BODY
    text += "  2) 62: 24/18 13/11                  Doubles => 2\n"
    text += "  3)  Drops                            Wins 1 point\n"
    record = mat_to_record(text)
    assert record.actions[-1] == Drop(0)
    assert replay(record)[-1].score == (0, 1)


def test_wins_after_a_move_on_its_row() -> None:
    text = " 3 point match\n\n" + TINY_BODY
    text += "  2) 62: 24/18 13/11                  Wins 1 point\n"
    record = mat_to_record(text)  # Alice resigned after her move, as gnubg reads it
    assert record.actions[-3:] == (Roll(0, Dice(6, 2)), Resign(0, 1), AcceptResign(1))
    assert replay(record)[-1].score == (0, 1)
    with pytest.raises(InvalidNotationError, match=r"line 6: .*expected 'Wins N point\(s\)'"):
        mat_to_record(text.replace("Wins 1 point", "Wins 1 point 62: 8/2"))


def test_a_trailing_roll_with_no_move_is_dropped() -> None:
    text = " 3 point match\n\n" + TINY_BODY + "  2) 62:\n"
    record = mat_to_record(text)
    assert record.actions[-1] == Play(1, "13/11 13/9")
    final = replay(record)[-1]
    assert final.game.phase == "turn" and final.game.turn == 0
    blank = text.replace("62:", "62:                              51: 13/8 6/5")
    with pytest.raises(InvalidNotationError, match="can be played but no move is written"):
        mat_to_record(blank, strict=True)
    (warning,) = import_warnings(mat_to_record(blank))
    assert "can be played but no move is written" in warning.message


def test_gnubg_takes_a_beaver_by_rolling_on() -> None:
    """gnubg writes no answer to a beaver: the doubler's next roll takes it."""
    text = " 0 point match\n\n" + TINY_BODY
    text += "  2)  Doubles => 2                    Beavers => 4\n"
    text += "  3) 62: 24/18 13/11                  51: 13/8 6/5\n"
    record = mat_to_record(text)
    assert record.options.beaver
    assert record.actions[4:7] == (Double(0), Beaver(1), Take(0))
    assert replay(record)[-1].game.cube.value == 4
    raccoon = text.replace("  3) 62:", "  3)  Beavers => 8\n  4) 62:")
    record = mat_to_record(raccoon)
    assert record.options.raccoon and Raccoon(0) in record.actions
    assert replay(record)[-1].game.cube.value == 8
