"""Swiss and arena pairings as pure functions (docs/tournaments.md): score groups, no
rematch while one can be avoided, byes to the lowest-ranked player without one (worth a
win), the tie-breaks; an arena's pairing of whoever waits and its streak points."""

from __future__ import annotations

import itertools
import random

from gammon.server.play.arena import Game as ArenaGame
from gammon.server.play.arena import arena_pairs, arena_standings
from gammon.server.play.swiss import Game, swiss_pairs, swiss_rounds, swiss_standings


def _play(
    players: list[str], rounds: int, rng: random.Random
) -> list[list[tuple[str, str | None]]]:
    """A whole Swiss event with random winners; every round's pairs."""
    games: list[Game] = []
    played = []
    for _ in range(rounds):
        pairs = swiss_pairs(players, games)
        played.append(pairs)
        for a, b in pairs:
            games.append(Game(a, b, a if b is None else rng.choice((a, b))))
    return played


def test_round_one_is_top_half_against_bottom_half_and_the_last_seed_has_the_bye() -> None:
    assert swiss_pairs(list("ABCDEF"), []) == [("A", "D"), ("B", "E"), ("C", "F")]
    assert swiss_pairs(list("ABCDEFG"), []) == [("A", "D"), ("B", "E"), ("C", "F"), ("G", None)]


def test_later_rounds_pair_within_score_groups() -> None:
    games = [Game("A", "D", "A"), Game("B", "E", "B"), Game("C", "F", "F")]
    pairs = swiss_pairs(list("ABCDEF"), games)
    points = {"A": 1, "B": 1, "F": 1, "C": 0, "D": 0, "E": 0}
    # three winners and three losers: one pair across the groups, the others within
    assert sum(points[a] != points[b] for a, b in pairs if b) == 1
    assert pairs[0][0] == "A" and points[pairs[0][1]] == 1  # type: ignore[index]


def test_no_rematch_while_one_can_be_avoided() -> None:
    rng = random.Random(7)
    for n in range(4, 17):
        players = [f"p{i}" for i in range(n)]
        event = _play(players, swiss_rounds(n), rng)
        met = [frozenset(p) for r in event for p in r if p[1] is not None]
        assert len(met) == len(set(met)), (n, event)


def test_byes_go_to_the_lowest_ranked_without_one_and_count_as_a_win() -> None:
    rng = random.Random(3)
    players = [f"p{i}" for i in range(7)]
    event = _play(players, 5, rng)
    byes = [next(a for a, b in r if b is None) for r in event]
    assert len(byes) == len(set(byes)) == 5  # nobody twice while others had none
    games = [Game(a, b, a) for a, b in event[0]]  # everyone listed first won
    lines = {x.entrant: x for x in swiss_standings(players, games)}
    assert lines["p6"].points == 1 and lines["p6"].wins == 1 and lines["p6"].buchholz == 0


def test_everyone_plays_every_round_exactly_once() -> None:
    rng = random.Random(11)
    for n in (2, 3, 5, 9, 33, 64):
        players = [f"p{i}" for i in range(n)]
        for pairs in _play(players, swiss_rounds(n), rng):
            seen = [p for pair in pairs for p in pair if p is not None]
            assert sorted(seen) == sorted(players)


def test_tie_breaks_buchholz_then_sonneborn_berger_then_seed() -> None:
    # A and B both 2 of 3; A's opponents scored more (Buchholz)
    games = [
        Game("A", "C", "A"), Game("B", "D", "B"), Game("E", "F", "E"),
        Game("A", "E", "E"), Game("B", "F", "F"), Game("C", "D", "C"),
        Game("A", "D", "A"), Game("B", "C", "B"), Game("E", "F", "F"),
    ]  # fmt: skip
    lines = swiss_standings(list("ABCDEF"), games)
    table = {x.entrant: (x.points, x.buchholz, x.sonneborn) for x in lines}
    assert table["A"] == (2, 1 + 2 + 0, 1 + 0) and table["B"] == (2, 0 + 2 + 1, 0 + 1)
    assert table["E"] == table["F"] == (2, 2 + 2 + 2, 2 + 2)
    # E, F before A, B on Buchholz; E before F and A before B: the seed
    assert [x.entrant for x in lines] == list("EFABCD")
    # Buchholz first: Y is the better seed, X's opponent scored more
    lines = swiss_standings(
        list("YXPQ"), [Game("X", "P", "X"), Game("Y", "Q", "Y"), Game("P", "Q", "P")]
    )
    order = [x.entrant for x in lines]
    assert order.index("X") < order.index("Y") and lines[0].buchholz == 1
    # Sonneborn-Berger when Buchholz ties: both met the same two, S beat the stronger
    games = [
        Game("R", "U", "U"),
        Game("R", "W", "R"),
        Game("S", "U", "S"),
        Game("S", "W", "W"),
        Game("U", "W", "U"),
    ]
    lines = swiss_standings(list("RSUW"), games)
    rs = [x for x in lines if x.entrant in "RS"]
    assert [(x.entrant, x.points, x.buchholz) for x in rs] == [("S", 1, 3), ("R", 1, 3)]
    assert rs[0].sonneborn == 2 and rs[1].sonneborn == 1
    # equal on everything: the better seed first
    tied = swiss_standings(["X", "Y"], [Game("X", None, "X"), Game("Y", None, "Y")])
    assert [x.entrant for x in tied] == ["X", "Y"]


def test_the_search_stays_bounded_when_rematches_cannot_be_avoided() -> None:
    players = list("ABCD")
    games = [Game(a, b, a) for a, b in itertools.combinations(players, 2)]
    pairs = swiss_pairs(players, games)  # everyone met everyone: rematches, still a round
    assert sorted(p for pair in pairs for p in pair if p) == players


def test_arena_pairs_whoever_waits_by_score_and_never_the_last_opponent() -> None:
    games = [ArenaGame("A", "B", "A", 1), ArenaGame("C", "D", "C", 2)]
    assert arena_pairs(list("ABCD"), games, busy=0) == [("A", "C"), ("B", "D")]
    # B and A just played and nobody else waits: B waits while C and D are busy
    assert arena_pairs(["A", "B"], games, busy=2) == []
    # nobody else in the arena at all: the rematch rather than nobody playing
    assert arena_pairs(["A", "B"], [ArenaGame("A", "B", "A", 1)], busy=0) == [("A", "B")]
    assert arena_pairs(list("ABC"), [], busy=0) == [("A", "B")]  # C waits


def test_arena_points_two_a_win_four_on_a_streak() -> None:
    games = [ArenaGame("A", "B", "A", t) for t in range(1, 5)] + [ArenaGame("A", "B", "B", 9)]
    lines = {x.entrant: x for x in arena_standings(["A", "B"], games)}
    assert (lines["A"].points, lines["A"].wins, lines["A"].streak) == (2 + 2 + 4 + 4, 4, 0)
    assert (lines["B"].points, lines["B"].streak) == (2, 1)
