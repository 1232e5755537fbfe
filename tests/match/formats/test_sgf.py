"""The SGF (gnubg GM[6]) exporter, checked by parsing the trees and replaying them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import Dice, InvalidNotationError, __version__
from gammon.match import (
    Abandon,
    AcceptResign,
    Beaver,
    Double,
    Match,
    MatchRecord,
    Play,
    Raccoon,
    RejectResign,
    Resign,
    Roll,
    TableOptions,
    Take,
    replay,
)
from gammon.match.formats import match_to_sgf, sgf_games, sgf_to_record
from strategies import match_records


def plays(record: MatchRecord) -> tuple[object, ...]:
    """Every checker play by the position it leaves (seen from player 0), the games, the score."""
    states = replay(record)
    seen = []
    for before, action in zip(states, record.actions, strict=False):
        if isinstance(action, Play):
            g = before.game
            assert g.dice is not None
            after = g.position.parse_move(action.move, g.dice).position_after()
            seen.append((after.flipped() if action.player == 0 else after).position_id())
    final = states[-1]
    return tuple(seen), tuple((o.winner, o.points) for o in final.games), final.score


def play_out(match: Match, rng: random.Random, turns: int = 10_000) -> None:
    """Roll and play random legal moves until the game ends (or ``turns`` turns)."""
    number = match.state.game.number
    for _ in range(turns):
        state = match.state
        if state.over or state.game.number != number:
            return
        g = state.game
        seat = g.turn if g.phase == "turn" and g.turn is not None else 0
        match.push(Roll(seat, Dice(rng.randint(1, 6), rng.randint(1, 6))))
        g = match.state.game
        if g.phase == "moving":
            assert g.dice is not None and g.turn is not None
            moves = g.position.legal_moves(g.dice)
            match.push(Play(g.turn, str(moves[rng.randrange(len(moves))])))
    while match.state.game.phase == "opening":
        match.push(Roll(0, Dice(rng.randint(1, 6), rng.randint(1, 6))))


def small_match() -> Match:
    m = Match(TableOptions(match_length=5), players=("Wh]te", "Bl\\ck"))
    for action in (
        Roll(1, Dice(3, 6)),  # the roll-off: player 1 starts with 6-3
        Play(1, "24/18 13/10"),
        Double(0),
        Take(1),
        Roll(0, Dice(6, 6)),
        Play(0, "24/18(2) 13/7(2)"),
        Roll(1, Dice(5, 1)),
        Play(1, "bar/20 6/5"),
        Resign(0, 1),
        RejectResign(1),
        Resign(0, 2),
        AcceptResign(1),  # player 1 wins 4: the Crawford game comes next
        Roll(0, Dice(3, 1)),
        Play(0, "8/5 6/5"),
        Abandon(1),
    ):
        m.push(action)
    return m


def test_what_the_trees_hold() -> None:
    m = small_match()
    text = match_to_sgf(m.record())
    games = sgf_games(text)
    assert len(games) == 2
    first, second = games
    root = first.properties
    assert root["FF"] == ("4",) and root["GM"] == ("6",) and root["CA"] == ("UTF-8",)
    assert root["AP"] == (f"gammon:{__version__}",)
    assert root["MI"] == ("length:5", "game:0", "ws:0", "bs:0")
    assert root["PW"] == ("Wh]te",) and root["PB"] == ("Bl\\ck",)
    assert root["RU"] == ("Crawford",)
    assert root["RE"] == ("B+4R",)
    # B 24/18 13/10: Black's 24 is White's 1 (a), its 18 is g; W 24/18(2) 13/7(2): four steps
    assert first.moves == (
        ("B", "63aglo"),
        ("W", "double"),
        ("B", "take"),
        ("W", "66xrxrmgmg"),
        ("B", "51yest"),
    )
    assert second.properties["MI"] == ("length:5", "game:1", "ws:0", "bs:4")
    assert second.properties["RU"] == ("Crawford:CrawfordGame",)
    assert second.properties["RE"] == ("W+3R",)
    assert "\\]" in text and "\\\\" in text
    back = sgf_to_record(text)
    assert back.players == m.players
    assert plays(back) == plays(m.record())


def test_letters_bar_off_and_dances() -> None:
    m = Match(TableOptions(match_length=1))
    m.push(Roll(1, Dice(1, 6)))
    m.push(Play(1, "24/23 13/7"))
    (game,) = sgf_games(match_to_sgf(m.record()))
    ((colour, value),) = game.moves
    assert colour == "B" and value[:2] == "61"
    assert sorted([value[2:4], value[4:6]]) == ["ab", "lr"]  # 24/23: a b, 13/7: l r
    # the letter rules on their own
    from gammon.match.formats.sgf import _letter, _point

    assert [_letter(0, p) for p in (8, 5, 6, 5)] == list("hefe")
    assert _letter(1, 25) + _letter(1, 18) == "yg"
    assert [_letter(0, p) for p in (6, 0, 5, 0)] == list("fzez")
    for player in (0, 1):
        for point in range(26):
            assert _point(player, _letter(player, point)) == point
        # one physical point, one letter: White's p is Black's 25 - p
        for point in range(1, 25):
            assert _letter(0, point) == _letter(1, 25 - point)


def test_dances_beavers_and_bear_offs_replay() -> None:
    rng = random.Random(139)  # a seed whose game has dances and a bear-off that hits
    m = Match(TableOptions(match_length=1))
    play_out(m, rng)
    text = match_to_sgf(m.record())
    assert any(
        value in {f"{a}{b}" for a in "123456" for b in "123456"}
        for _, value in sgf_games(text)[0].moves
    )
    assert "z" in "".join(v for _, v in sgf_games(text)[0].moves if v[0].isdigit())
    assert plays(sgf_to_record(text)) == plays(m.record())

    money = Match(TableOptions(beaver=True, raccoon=True))
    for action in (
        Roll(0, Dice(3, 1)),
        Play(0, "8/5 6/5"),
        Double(1),
        Beaver(0),
        Raccoon(1),
        Take(0),
    ):
        money.push(action)
    play_out(money, rng)
    text = match_to_sgf(money.record())
    values = [v for _, v in sgf_games(text)[0].moves]
    assert values[1:5] == ["double", "double", "double", "take"]
    back = sgf_to_record(text)
    assert back.options == TableOptions(beaver=True, raccoon=True)
    assert plays(back) == plays(money.record())


OPTIONS = [
    TableOptions(match_length=1),
    TableOptions(match_length=3),
    TableOptions(match_length=2, crawford=False),
    TableOptions(jacoby=True),
    TableOptions(beaver=True, raccoon=True),
    TableOptions(match_length=3, first_move="loser"),
    TableOptions(cube=False),
    TableOptions(match_length=3, opening="reroll"),  # RU's Reroll says it
]


def test_a_table_whose_roll_off_winner_rolls_again() -> None:
    """``opening`` ``reroll`` (issue #32): gammon writes ``Reroll`` in ``RU`` (gnubg
    ignores it); without it, a first game that starts with a double says it.  Each
    game's roll-off, not in the file, comes back won 2-1 by its first mover."""
    starts = [
        ("(;GM[6]MI[length:3]RU[Crawford];W[44xtxtmimi])", Dice(4, 4)),
        ("(;GM[6]MI[length:3]RU[Crawford:Reroll];W[31hefe])", Dice(3, 1)),
    ]
    for text, first in starts:
        record = sgf_to_record(text)
        assert record.options == TableOptions(match_length=3, opening="reroll")
        assert record.actions[:2] == (Roll(0, Dice(2, 1)), Roll(0, first))
    with pytest.raises(InvalidNotationError, match="starts with 44, a double"):
        sgf_to_record(starts[0][0], options=TableOptions(match_length=3))
    m = Match(TableOptions(match_length=3, opening="reroll"))
    for action in (Roll(1, Dice(1, 3)), Double(1), Take(0), Roll(1, Dice(2, 2))):
        m.push(action)  # player 1 wins the roll-off and doubles before rolling
    m.push(Play(1, "13/11(2) 6/4(2)"))
    text = match_to_sgf(m.record())
    assert "RU[Crawford:Reroll]" in text and ";B[double]\n;W[take]\n;B[22" in text
    back = sgf_to_record(text)
    assert back.options == m.record().options
    assert back.actions == (Roll(1, Dice(1, 2)), *m.record().actions[1:])


def random_matches() -> st.SearchStrategy[MatchRecord]:
    """A short match of random legal actions at one of :data:`OPTIONS`."""
    return st.sampled_from(OPTIONS).flatmap(match_records)


@settings(max_examples=10, deadline=None)
@given(random_matches())
def test_random_matches_replay_from_their_sgf(record: MatchRecord) -> None:
    text = match_to_sgf(record)
    games = sgf_games(text)
    assert all(g.properties["GM"] == ("6",) for g in games)
    back = sgf_to_record(text, options=record.options)
    assert plays(back) == plays(record)
    if games and not (record.options.beaver or record.options.first_move != "rolloff"):
        assert sgf_to_record(text).options == record.options


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;GM[6]", "SGF line 1"),
        ("(;GM[1])", "not backgammon"),
        (
            "(;GM[6]MI[length:3];W[31hdfe])",
            r"SGF line 1: SGF game 1, node 1: W\[31hdfe\]: illegal move",
        ),
        ("(;GM[6]\nMI[length:3]\n;W[31])", "can be played but no move"),
        ("(;GM[6];W[flip])", "expected dice and point letters"),
        ("(;GM[6];AW[a])", "edited positions"),
        ("(;GM[6]RE[W+5];W[31hefe])", "player 0 wins 5 points"),
        ("(;GM[6]MI[length:3][ws:3][bs:0];W[31hefe])", "cannot start at 3-0"),
        ("(;GM[6]MI[length:3][ws:x][bs:0];W[31hefe])", "bad score"),
        (
            "(;GM[6]MI[length:3][ws:2][bs:2]RU[Crawford:CrawfordGame];W[31hefe])",
            "past its Crawford",
        ),
        (
            "(;GM[6]MI[length:3][ws:0][bs:0]RE[W+1R];W[31hefe])"
            "(;GM[6]MI[length:3][game:1][ws:0][bs:0];W[31hefe])",
            "starts at 0-0, but the games before it give 1-0",
        ),
    ],
)
def test_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        sgf_to_record(text)


def test_variations_and_analysis_are_skipped() -> None:
    text = "(;GM[6]MI[length:1]C[hello];W[31hefe]A[0][x]LU[+0.1](;B[42lpln])(;B[66]))"
    (game,) = sgf_games(text)
    assert game.moves == (("W", "31hefe"), ("B", "42lpln"))
    record = sgf_to_record(text)
    assert [type(a) for a in record.actions] == [Roll, Play, Roll, Play]
