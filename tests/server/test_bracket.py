"""Pairing logic of tournaments (gammon.server.play.bracket): byes, seeding, round robins."""

from __future__ import annotations

import itertools

import pytest

from gammon.server.play.bracket import (
    Result,
    Seedable,
    bracket_order,
    knockout_first_round,
    knockout_rounds,
    next_round,
    round_robin,
    seeding,
    standings,
)


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (3, [(1, None), (2, 3)]),
        (5, [(1, None), (4, 5), (2, None), (3, None)]),
        (6, [(1, None), (4, 5), (2, None), (3, 6)]),
        (7, [(1, None), (4, 5), (2, 7), (3, 6)]),
        (8, [(1, 8), (4, 5), (2, 7), (3, 6)]),
    ],
)
def test_byes_go_to_the_top_seeds(n: int, expected: list[tuple[int, int | None]]) -> None:
    first = knockout_first_round(list(range(1, n + 1)))
    assert first == expected
    byes = [a for a, b in first if b is None]
    assert byes == sorted(byes) and len(byes) == len(first) * 2 - n
    assert all(a is not None for a, _b in first)  # a bye never meets a bye


@pytest.mark.parametrize("n", range(2, 20))
def test_a_knockout_has_one_winner_and_the_top_two_meet_last(n: int) -> None:
    alive: list[int | None] = [
        a if b is None else min(a, b) for a, b in knockout_first_round(list(range(1, n + 1)))
    ]  # the better seed wins every match
    rounds = 1
    while len(alive) > 1:
        pairs = next_round(alive)
        if len(pairs) == 1 and n >= 2:
            assert sorted(p for p in pairs[0] if p is not None) == [1, 2]
        alive = [min(x for x in pair if x is not None) for pair in pairs]
        rounds += 1
    assert alive == [1]
    assert rounds == knockout_rounds(n)


def test_bracket_order_spreads_the_seeds() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    order = bracket_order(16)
    assert sorted(order) == list(range(1, 17))
    assert all(a + b == 17 for a, b in zip(order[::2], order[1::2], strict=True))
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)


def test_seeding_by_rating_then_registration() -> None:
    entrants = [
        Seedable("late-unrated", None, 5),
        Seedable("low", 1400.0, 1),
        Seedable("early-unrated", None, 0),
        Seedable("high", 1800.0, 4),
        Seedable("tie-first", 1600.0, 2),
        Seedable("tie-second", 1600.0, 3),
    ]
    assert seeding(entrants) == [
        "high",
        "tie-first",
        "tie-second",
        "low",
        "early-unrated",
        "late-unrated",
    ]
    # without ratings, registration decides
    assert seeding(Seedable(k, None, i) for i, k in enumerate("cab")) == ["c", "a", "b"]


@pytest.mark.parametrize("n", range(2, 9))
def test_a_round_robin_pairs_everyone_once(n: int) -> None:
    players = list(range(n))
    rounds = round_robin(players)
    assert len(rounds) == (n if n % 2 else n - 1)
    met = []
    for pairs in rounds:
        seen = [p for pair in pairs for p in pair if p is not None]
        assert len(seen) == len(set(seen)), "nobody plays twice in a round"
        byes = [pair for pair in pairs if None in pair]
        assert len(byes) == n % 2
        met += [frozenset(pair) for pair in pairs if None not in pair]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(players, 2)), key=sorted
    )


def test_round_robin_gives_the_first_seat_in_turn() -> None:
    firsts = [pairs[0][0] for pairs in round_robin(list("ABCD"))]
    assert firsts.count("A") in (1, 2) and len(set(firsts)) > 1


def test_standings_order_wins_then_head_to_head_then_seed() -> None:
    results = [
        Result("A", "B", "B"),
        Result("C", "D", "C"),
        Result("A", "C", "A"),
        Result("B", "D", "D"),
        Result("A", "D", "A"),
        Result("B", "C", "C"),
    ]
    # A and C have two wins each and A beat C; B and D one each and D beat B
    assert standings(["A", "B", "C", "D"], results) == [
        ("A", 2, 1),
        ("C", 2, 1),
        ("D", 1, 2),
        ("B", 1, 2),
    ]
    # all tied, head to head in a circle: the seed decides
    circle = [Result("A", "B", "A"), Result("B", "C", "B"), Result("C", "A", "C")]
    assert [e for e, _w, _l in standings(["C", "B", "A"], circle)] == ["C", "B", "A"]
    assert standings(["A", "B"], [Result("A", "B", None)]) == [("A", 0, 0), ("B", 0, 0)]
