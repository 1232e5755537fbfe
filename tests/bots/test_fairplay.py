"""The fair-play statistic (gammon.bots.fairplay, docs/fairplay.md): a player who matches
the analyser on every decision against a weak history is flagged, an honest one is not,
too few decisions are never flagged, and the same input always gives the same score."""

from __future__ import annotations

import random

import pytest

from gammon.bots.fairplay import (
    DEFAULT_PARAMS,
    FairPlayError,
    History,
    SeatDecisions,
    binomial_tail_z,
    check,
    check_against,
    seat_decisions,
)


def _play(rng: random.Random, decisions: int, agree: float, mean_error: float) -> SeatDecisions:
    """A synthetic match: each decision agrees with the analyser with chance ``agree``,
    else loses an exponential amount of equity (mean chosen to make ``mean_error``)."""
    miss = mean_error / 1000.0 / max(1e-9, 1.0 - agree)
    return SeatDecisions(
        tuple(
            0.0 if rng.random() < agree else rng.expovariate(1.0 / miss) for _ in range(decisions)
        )
    )


def _analysis(seat_errors: dict[int, list[float]]) -> dict[str, object]:
    """An analysis's JSON with only what the check reads (two games)."""
    decisions = [
        {"player": p, "error": e, "kind": "checker"} for p, es in seat_errors.items() for e in es
    ]
    half = len(decisions) // 2
    return {"games": [{"decisions": decisions[:half]}, {"decisions": decisions[half:]}]}


WEAK = History(decisions=800, error_rate=25.0, agreement=0.55)


def test_a_player_matching_the_bot_everywhere_against_a_weak_history_is_flagged() -> None:
    data = _analysis({0: [0.0] * 70, 1: [0.0, 0.05, 0.1, 0.0] * 20})
    cheat = seat_decisions(data, 0)
    assert (cheat.decisions, cheat.agreed, cheat.agreement) == (70, 70, 1.0)
    result = check(cheat, WEAK)
    assert result.flagged and result.score >= DEFAULT_PARAMS.threshold
    assert result.z_error > 3 and result.z_agreement > 3
    assert result.baseline == 25.0 and result.error_rate == 0.0
    assert result.detail()["score"] == round(result.score, 2)


def test_honest_play_like_ones_history_is_not_flagged() -> None:
    rng = random.Random(7)
    scores = []
    for _ in range(300):  # matches drawn from the very distribution of the history
        result = check(_play(rng, 80, 0.55, 25.0), WEAK)
        assert not result.flagged
        scores.append(result.score)
    assert -1.0 < sum(scores) / len(scores) < 1.0  # centred near 0
    # a strong player's usual strong match is not suspicious either
    strong = History(decisions=800, error_rate=3.0, agreement=0.9)
    assert not check(_play(rng, 80, 0.9, 3.0), strong).flagged
    # nor is bot-level play by a player whose history is bot-level
    bot_level = History(decisions=800, error_rate=0.0, agreement=1.0)
    assert not check(SeatDecisions((0.0,) * 90), bot_level).flagged


def test_too_few_decisions_are_never_flagged() -> None:
    few = SeatDecisions((0.0,) * (DEFAULT_PARAMS.min_decisions - 1))
    result = check(few, WEAK)
    assert result.score >= DEFAULT_PARAMS.threshold and not result.flagged
    assert not check(SeatDecisions(()), WEAK).flagged
    assert check(SeatDecisions((0.0,) * DEFAULT_PARAMS.min_decisions), WEAK).flagged


def test_without_history_the_prior_is_used() -> None:
    result = check(SeatDecisions((0.0,) * 90), None)
    assert result.baseline is None and result.baseline_agreement is None
    assert result.flagged  # a new account playing the analyser's every move
    assert not check(_play(random.Random(3), 90, 0.6, 15.0), None).flagged


def test_the_check_is_deterministic() -> None:
    decisions = _play(random.Random(11), 100, 0.8, 8.0)
    first = check(decisions, WEAK)
    again = check(SeatDecisions(tuple(decisions.errors)), History(800, 25.0, 0.55))
    assert first == again
    assert History.of([(60, 10.0, 0.5), (40, 20.0, 0.75)]) == History(100, 14.0, 0.6)


def test_a_partial_cheat_over_several_matches_stands_out_in_the_window() -> None:
    rng = random.Random(5)
    history = [(80, 25.0, 0.55)] * 10  # newest first, as the server reads them
    # matches with the analyser's move for half the decisions: a little better each time
    cheats = [_play(rng, 80, 0.775, 12.5) for _ in range(3)]
    past = list(history)
    results = []
    for match in cheats:
        results.append(check_against(match, past))
        past.insert(0, (match.decisions, match.error_rate, match.agreement))
    assert check(cheats[0], History(800, 25.0, 0.55)).window_score is None  # the match alone
    last = results[-1]
    assert last.window_score is not None and last.window_score > last.match_score
    assert last.flagged and last.score == last.window_score
    # the same matches among honest ones of the same level are not flagged
    honest = [_play(rng, 80, 0.55, 25.0) for _ in range(3)]
    past = list(history)
    for match in honest:
        assert not check_against(match, past).flagged
        past.insert(0, (match.decisions, match.error_rate, match.agreement))


def test_the_window_needs_a_history_before_it() -> None:
    # a bot-level newcomer: its first match, then two more, all at the analyser's level
    perfect = SeatDecisions((0.0,) * 90)
    past = [(90, 0.0, 1.0), (90, 0.0, 1.0), (60, 0.0, 1.0)]  # newest first
    result = check_against(perfect, past)
    assert result.window_score is None  # 60 decisions before the window: too few
    assert not result.flagged
    longer = check_against(perfect, [*past, (90, 0.0, 1.0)])
    assert longer.window_score is not None and not longer.flagged


def test_the_agreement_tail_is_a_tail() -> None:
    # more agreements are always more suspicious, and exact at the ends
    zs = [binomial_tail_z(k, 60, 30.0, 30.0) for k in range(1, 61)]
    assert zs == sorted(zs)
    assert binomial_tail_z(0, 60, 30.0, 30.0) == -12.0


def test_bad_input_is_refused_in_words() -> None:
    with pytest.raises(FairPlayError, match="seat is 0 or 1"):
        seat_decisions({"games": []}, 2)
    with pytest.raises(FairPlayError, match="player and error"):
        seat_decisions({"games": [{"decisions": [{"player": 0}]}]}, 0)
    with pytest.raises(ValueError, match="equity loss"):
        SeatDecisions((0.0, -0.1))
    with pytest.raises(FairPlayError, match="agreement in"):
        History(10, 5.0, 1.5)
