"""rules.md §4.2-4.4 (S01-S19, K01-K23) as scenarios, plus the engine's guarantees."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gammon import Dice, IllegalActionError, IllegalMoveError, InvalidOptionsError, Position
from gammon.match import (
    Abandon,
    AcceptResign,
    Beaver,
    CubeState,
    Double,
    Drop,
    MatchState,
    Play,
    Raccoon,
    RejectResign,
    Resign,
    Roll,
    TableOptions,
    Take,
    Timeout,
    allowed_actions,
    apply,
    new_match,
    to_act,
)
from gammon.match.actions import Action

X, O = 0, 1  # noqa: E741


def play(state: MatchState, *actions: Action) -> MatchState:
    for action in actions:
        state = apply(state, action).state
    return state


def at(
    options: TableOptions,
    position: Position,
    turn: int = X,
    *,
    cube: CubeState | None = None,
    score: tuple[int, int] = (0, 0),
    starter: int | None = None,
    crawford: bool = False,
    crawford_reached: bool = False,
) -> MatchState:
    """A state at the start of ``turn``'s turn in ``position`` (seen from ``turn``)."""
    state = new_match(options)
    game = replace(
        state.game,
        phase="turn",
        position=position,
        turn=turn,
        cube=cube or CubeState(),
        starter=X if starter is None else starter,
        crawford=crawford,
    )
    return replace(state, game=game, score=score, crawford_reached=crawford_reached or crawford)


def last_game(state: MatchState) -> tuple[int | None, int, int, str]:
    g = state.games[-1]
    return g.winner, g.points, g.result, g.reason


# X has one checker left on its 1-point; O's 15 checkers decide gammon/backgammon.
def x_wins_next(opponent: dict[int, int], opponent_bar: int = 0) -> Position:
    return Position.from_points({1: 1}, opponent, opponent_bar=opponent_bar)


GAMMON = {6: 15}  # O has nothing off, nothing in X's home
BACKGAMMON = {20: 1, 6: 14}  # O's 20 is X's 5: in X's home


def finish(state: MatchState) -> MatchState:
    return play(state, Roll(X, Dice(6, 5)), Play(X, "1/off"))


# ---------------------------------------------------------------- S07-S19 scoring


def test_s07_jacoby_gammon_with_centered_cube_counts_one() -> None:
    s = finish(at(TableOptions(jacoby=True), x_wins_next(GAMMON)))
    assert last_game(s) == (X, 1, 1, "bear_off") and s.score == (1, 0)


def test_s08_jacoby_no_longer_applies_once_doubled() -> None:
    s = finish(at(TableOptions(jacoby=True), x_wins_next(GAMMON), cube=CubeState(2, O)))
    assert last_game(s)[:3] == (X, 4, 2)


def test_s09_automatic_double_keeps_jacoby() -> None:
    s = finish(
        at(
            TableOptions(jacoby=True, automatic_doubles=1),
            x_wins_next(BACKGAMMON),
            cube=CubeState(2),
        )
    )
    assert last_game(s)[:3] == (X, 2, 1)


def test_s10_jacoby_is_refused_in_matches_and_gammons_count() -> None:
    with pytest.raises(InvalidOptionsError, match="jacoby"):
        TableOptions(match_length=5, jacoby=True)
    s = finish(at(TableOptions(match_length=5), x_wins_next(GAMMON)))
    assert s.score == (2, 0)


@pytest.mark.parametrize(
    ("setting", "loser", "points"),
    [("oin", BACKGAMMON, 4), ("mars", BACKGAMMON, 8), ("cox", GAMMON, 8), ("cox", BACKGAMMON, 12)],
    ids=["S11", "S12", "S13", "cox-cox"],
)
def test_s11_s13_end_settings(setting: str, loser: dict[int, int], points: int) -> None:
    s = finish(at(TableOptions(end_setting=setting), x_wins_next(loser), cube=CubeState(4, X)))  # type: ignore[arg-type]
    assert last_game(s)[1] == points


def test_s14_s16_abandon_scored_from_the_board() -> None:
    # S14: Cox table, cube 2: X abandons with nothing off and a checker on the bar
    on_bar = Position.from_points({6: 14}, {6: 5}, player_bar=1)
    s = play(at(TableOptions(), on_bar, cube=CubeState(2, O)), Abandon(X))
    assert last_game(s) == (O, 6, 3, "abandon")
    # S15: same with 3 off
    three_off = Position.from_points({6: 11}, {6: 5}, player_bar=1)
    s = play(at(TableOptions(), three_off, cube=CubeState(2, O)), Abandon(X))
    assert last_game(s)[:3] == (O, 2, 1)
    # S16: Mars table, cube 1, nothing off, all in own home and outer boards
    home = Position.from_points({6: 10, 8: 5}, {6: 5})
    s = play(at(TableOptions(end_setting="mars"), home), Abandon(X))
    assert last_game(s)[:3] == (O, 2, 2)
    # an abandon by the player not on turn is scored from that player's checkers
    s = play(at(TableOptions(end_setting="mars"), home.flipped(), turn=O), Abandon(X))
    assert last_game(s)[:3] == (O, 2, 2)


def test_timeout_is_scored_like_an_abandon_and_only_for_the_player_to_act() -> None:
    s0 = at(TableOptions(), Position.from_points({6: 11}, {6: 5}, player_bar=1))
    with pytest.raises(IllegalActionError, match="run out of time"):
        apply(s0, Timeout(O))
    assert last_game(play(s0, Timeout(X))) == (O, 1, 1, "timeout")


def draw_table() -> TableOptions:
    return TableOptions(draw_last_roll=True)


def test_s17_last_roll_can_draw() -> None:
    # X started; X bears off its last checker; O has {6: 2} left
    s = at(draw_table(), Position.from_points({1: 1}, {6: 2}), starter=X)
    s = play(s, Roll(X, Dice(2, 1)), Play(X, "1/off"))
    assert s.game.last_roll and s.game.turn == O and s.games == ()
    assert allowed_actions(s)[O] == ("roll", "abandon", "timeout")
    with pytest.raises(IllegalActionError):
        apply(s, Double(O))
    drawn = play(s, Roll(O, Dice(3, 3)), Play(O, "6/off(2)"))
    assert last_game(drawn) == (None, 0, 0, "draw") and drawn.score == (0, 0)
    assert drawn.game.phase == "opening"  # after a draw the next game starts with a roll-off
    lost = play(s, Roll(O, Dice(2, 1)), Play(O, "6/3"))
    assert last_game(lost)[:3] == (X, 1, 1)


def test_s18_second_player_finishing_first_wins_at_once() -> None:
    s = at(draw_table(), Position.from_points({1: 1}, {6: 2}), turn=O, starter=X)
    s = play(s, Roll(O, Dice(2, 1)), Play(O, "1/off"))
    assert last_game(s)[:2] == (O, 1)


def test_s19_five_checkers_cannot_draw_and_result_is_judged_after_the_roll() -> None:
    s = at(draw_table(), Position.from_points({1: 1}, {6: 5, 5: 10}), starter=X)
    s = play(s, Roll(X, Dice(2, 1)), Play(X, "1/off"))
    # O has nothing off: a Mars (gammon) unless the last roll bears one off
    mars = play(s, Roll(O, Dice(2, 1)), Play(O, "6/4 6/5"))
    assert last_game(mars)[:3] == (X, 2, 2)
    oin = play(s, Roll(O, Dice(6, 5)), Play(O, "6/off 5/off"))
    assert last_game(oin)[:3] == (X, 1, 1)


# ---------------------------------------------------------------- K01-K23 cube, match, series


def test_k01_no_double_after_rolling() -> None:
    s = play(new_match(), Roll(X, Dice(3, 1)))
    with pytest.raises(IllegalActionError, match="cannot double now"):
        apply(s, Double(X))


def test_k02_only_the_owner_or_anyone_with_a_centered_cube() -> None:
    s = at(TableOptions(), Position.initial(), cube=CubeState(2, O))
    with pytest.raises(IllegalActionError, match="owned by player 1"):
        apply(s, Double(X))
    with pytest.raises(IllegalActionError):
        apply(s, Double(O))  # not O's turn


def test_k03_closed_out_player_may_double_then_cannot_move() -> None:
    closed = Position.from_points({6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, player_bar=1)
    s = play(at(TableOptions(), closed), Double(X), Take(O))
    t = apply(s, Roll(X, Dice(6, 6)))
    assert [e.kind for e in t.events] == ["rolled", "no_move"]
    assert t.state.game.turn == O and t.state.game.phase == "turn"


def test_k04_k05_drops_score_the_value_before_the_double() -> None:
    s = play(at(TableOptions(), x_wins_next(BACKGAMMON)), Double(X), Drop(O))
    assert last_game(s) == (X, 1, 1, "drop")
    s = play(at(TableOptions(), Position.initial(), cube=CubeState(2, X)), Double(X), Drop(O))
    assert last_game(s)[:2] == (X, 2)


def test_k06_take_gives_the_cube_to_the_taker() -> None:
    s = play(at(TableOptions(), Position.initial()), Double(X), Take(O))
    assert s.game.cube == CubeState(2, O)
    assert s.game.phase == "turn" and s.game.turn == X
    assert "double" not in allowed_actions(s)[X]
    with pytest.raises(IllegalActionError, match="owned by player 1"):
        apply(s, Double(X))


def test_k07_k08_cube_limits() -> None:
    s = play(at(TableOptions(cube_limit=2), Position.initial()), Double(X), Take(O))
    s = replace(s, game=replace(s.game, turn=O, position=s.game.position.flipped()))
    with pytest.raises(IllegalActionError, match="table limit"):
        apply(s, Double(O))
    s = at(TableOptions(cube_limit=8), Position.initial(), cube=CubeState(4, X))
    s = play(s, Double(X), Take(O))
    assert s.game.cube == CubeState(8, O)
    s = replace(s, game=replace(s.game, turn=O, position=s.game.position.flipped()))
    assert "double" not in allowed_actions(s)[O]


def test_k09_no_cube() -> None:
    s = at(TableOptions(cube=False, stake=5), x_wins_next(GAMMON))
    assert "double" not in allowed_actions(s)[X]
    with pytest.raises(IllegalActionError, match="without the cube"):
        apply(s, Double(X))
    s = finish(s)
    assert last_game(s)[1] == 2
    assert [(e.player, e.amount) for e in s.ledger] == [(X, 10), (O, -10)]


def test_k10_k11_beaver_and_raccoon() -> None:
    opts = TableOptions(beaver=True, raccoon=True)
    s = play(at(opts, Position.initial()), Double(X), Beaver(O))
    assert s.game.cube == CubeState(4, O) and s.game.phase == "beavered" and to_act(s) == (X,)
    taken = play(s, Take(X))
    assert (
        taken.game.cube == CubeState(4, O) and taken.game.phase == "turn" and taken.game.turn == X
    )
    assert last_game(play(s, Drop(X)))[:2] == (O, 2)
    r = play(s, Raccoon(X))
    assert r.game.cube == CubeState(8, O) and to_act(r) == (O,)
    assert play(r, Take(O)).game.cube == CubeState(8, O)
    assert last_game(play(r, Drop(O)))[:2] == (X, 4)
    # without the option, or past the limit, they are refused
    with pytest.raises(IllegalActionError, match="not allowed"):
        apply(
            play(at(TableOptions(beaver=True), Position.initial()), Double(X), Beaver(O)),
            Raccoon(X),
        )
    with pytest.raises(IllegalActionError, match="cube limit"):
        apply(
            play(at(TableOptions(beaver=True, cube_limit=2), Position.initial()), Double(X)),
            Beaver(O),
        )


def test_k12_no_beaver_in_a_match() -> None:
    with pytest.raises(InvalidOptionsError, match="beaver"):
        TableOptions(match_length=5, beaver=True)
    s = play(at(TableOptions(match_length=5), Position.initial()), Double(X))
    with pytest.raises(IllegalActionError, match="not allowed"):
        apply(s, Beaver(O))


def test_k13_automatic_doubles_with_a_cap() -> None:
    s = play(new_match(TableOptions(automatic_doubles=1)), Roll(X, Dice(3, 3)))
    assert s.game.cube == CubeState(2, None) and s.game.phase == "opening"
    s = play(s, Roll(O, Dice(4, 4)))
    assert s.game.cube == CubeState(2, None)
    s = play(s, Roll(X, Dice(5, 2)))
    assert s.game.turn == X and s.game.dice == Dice(5, 2) and s.game.phase == "moving"


def test_k14_k23_ties_reroll_and_the_opening_is_never_a_double() -> None:
    s = play(new_match(TableOptions(match_length=5)), Roll(X, Dice(4, 4)), Roll(X, Dice(3, 3)))
    assert s.game.cube == CubeState() and s.game.phase == "opening"
    s = play(s, Roll(O, Dice(2, 6)))
    assert s.game.turn == O and s.game.dice == Dice(6, 2)


def test_an_opening_reroll_table_may_start_with_a_double() -> None:
    """``opening="reroll"`` (the older rules): the roll-off's winner rolls both dice again,
    so the first move may be a double (issue #32); the roll-off is not played."""
    s = new_match(TableOptions(match_length=5, opening="reroll"))
    t = apply(s, Roll(O, Dice(5, 2)))  # player 0's die 5, player 1's 2
    assert [e.kind for e in t.events] == ["opening_roll", "starts"]
    g = t.state.game
    assert (g.phase, g.turn, g.starter, g.dice, g.plies) == ("turn", X, X, None, 0)
    assert "double" in allowed_actions(t.state)[X]  # the starter may double before rolling
    s = play(t.state, Roll(X, Dice(4, 4)))
    assert s.game.phase == "moving" and s.game.dice == Dice(4, 4)
    s = play(s, Play(X, "24/20(2) 13/9(2)"))
    assert (s.game.phase, s.game.turn, s.game.plies) == ("turn", O, 1)
    # the default (standard) plays the roll-off's two dice, as K23 says
    s = play(new_match(TableOptions(match_length=5)), Roll(O, Dice(5, 2)))
    assert s.game.phase == "moving" and s.game.dice == Dice(5, 2)


def test_an_opening_reroll_table_keeps_the_opening_tie_rules() -> None:
    """Ties roll again and, in money play, double the cube up to the cap (K13, K14);
    the starter's own first roll, a double or not, doubles nothing."""
    s = new_match(TableOptions(automatic_doubles=2, opening="reroll"))
    s = play(s, Roll(X, Dice(3, 3)), Roll(O, Dice(6, 6)), Roll(X, Dice(1, 1)))
    assert s.game.cube == CubeState(4, None) and s.game.phase == "opening"
    s = play(s, Roll(X, Dice(2, 5)))
    assert (s.game.phase, s.game.turn, s.game.dice) == ("turn", O, None)
    s = play(s, Roll(O, Dice(6, 6)))
    assert s.game.cube == CubeState(4, None) and s.game.dice == Dice(6, 6)
    s = play(new_match(TableOptions(match_length=5, opening="reroll")), Roll(X, Dice(4, 4)))
    assert s.game.cube == CubeState() and s.game.phase == "opening"  # a match: no double


def test_the_greek_games_may_play_the_roll_off() -> None:
    """``opening="play"`` at a portes table: the roll-off's winner plays its two dice."""
    s = play(
        new_match(TableOptions(variant="portes", cube=False, opening="play")), Roll(X, Dice(6, 1))
    )
    assert s.game.phase == "moving" and s.game.dice == Dice(6, 1)
    s = play(new_match(TableOptions(variant="portes", cube=False)), Roll(X, Dice(6, 1)))
    assert s.game.phase == "turn" and s.game.dice is None


def win_game(state: MatchState, winner: int, points_level: int = 1) -> MatchState:
    """Let ``winner`` win the current game by a resignation at ``points_level``."""
    loser = 1 - winner
    number = state.game.number
    while state.game.number == number:
        g = state.game
        if g.phase == "opening":
            state = play(state, Roll(X, Dice(6, 1) if loser == X else Dice(1, 6)))
        elif g.phase == "moving":
            assert g.dice is not None and g.turn is not None
            state = play(state, Play(g.turn, str(g.position.legal_moves(g.dice)[0])))
        elif g.phase == "turn" and g.turn == loser:
            state = play(state, Resign(loser, points_level), AcceptResign(winner))
        else:
            assert g.turn is not None
            state = play(state, Roll(g.turn, Dice(2, 1)))
    return state


def test_k15_k16_crawford_game_and_post_crawford() -> None:
    s = replace(new_match(TableOptions(match_length=5)), score=(3, 2))
    s = win_game(s, X)
    assert s.score == (4, 2) and s.game.crawford and s.crawford_reached
    s = play(s, Roll(X, Dice(6, 1)), Play(X, "13/7 8/7"))
    assert "double" not in allowed_actions(s)[O]
    with pytest.raises(IllegalActionError, match="Crawford"):
        apply(s, Double(O))
    s = win_game(s, O)
    assert s.score == (4, 3) and not s.game.crawford and s.post_crawford
    s = play(s, Roll(O, Dice(1, 6)), Play(O, "13/7 8/7"))
    assert "double" in allowed_actions(s)[X]  # the leader may double (pointless but legal)
    s = play(s, Roll(X, Dice(2, 1)), Play(X, "13/11 6/5"))
    assert "double" in allowed_actions(s)[O]


def test_the_final_position_is_seen_from_the_seat_on_turn() -> None:
    # X bears off its last checker and wins the match: the last position shows O's
    # checkers as ``player`` and ``turn`` names O, as in every other state
    s = finish(at(TableOptions(match_length=1), x_wins_next(GAMMON)))
    assert s.over and s.game.turn == O
    assert s.game.position.opponent[0] == 15 and s.game.position.player[6] == 15


def test_k17_match_ends_without_excess() -> None:
    s = replace(new_match(TableOptions(match_length=5)), score=(2, 2))
    s = at(TableOptions(match_length=5), x_wins_next(GAMMON), cube=CubeState(2, O), score=(2, 2))
    s = finish(s)
    assert s.over and s.winner == X and s.score == (5, 2) and last_game(s)[1] == 4
    assert allowed_actions(s) == {} and to_act(s) == ()
    with pytest.raises(IllegalActionError, match="match is over"):
        apply(s, Roll(X, Dice(3, 1)))


def test_k18_one_crawford_game_per_match() -> None:
    s = replace(new_match(TableOptions(match_length=7)), score=(4, 4))
    s = win_game(s, X, 2)
    assert s.score == (6, 4) and s.game.crawford
    s = win_game(s, O)
    assert s.score == (6, 5) and not s.game.crawford
    s = win_game(s, O)
    assert s.score == (6, 6) and not s.game.crawford
    s = play(s, Roll(X, Dice(6, 1)), Play(X, "13/7 8/7"))
    assert "double" in allowed_actions(s)[O]  # the cube is live at 6-6


def test_k19_k20_resignations() -> None:
    s = at(TableOptions(), Position.initial(), turn=O, cube=CubeState(2, X))
    offered = play(s, Resign(O, 2))
    assert offered.game.phase == "resigning" and to_act(offered) == (X,)
    assert last_game(play(offered, AcceptResign(X)))[:2] == (X, 4)
    back = play(offered, RejectResign(X))
    assert back.game.phase == "turn" and back.game.turn == O
    # after a rejection only a higher level may be offered this game
    with pytest.raises(IllegalActionError, match="rejected this game"):
        apply(back, Resign(O, 2))
    assert play(back, Resign(O, 3)).game.resign_level == 3
    jacoby = play(
        at(TableOptions(jacoby=True), Position.initial(), turn=O), Resign(O, 2), AcceptResign(X)
    )
    assert last_game(jacoby)[:2] == (X, 1)
    with pytest.raises(IllegalActionError, match="own turn"):
        apply(s, Resign(X, 1))


@pytest.mark.parametrize(("rule", "game2", "game3"), [("loser", O, X), ("alternate", O, X)])
def test_k21_k22_first_move_in_a_series(rule: str, game2: int, game3: int) -> None:
    s = new_match(TableOptions(first_move=rule))  # type: ignore[arg-type]
    s = play(s, Roll(X, Dice(5, 2)))  # X starts game 1
    s = win_game(s, X)
    assert s.game.phase == "turn" and s.game.turn == game2 and s.game.starter == game2
    s = play(s, Roll(game2, Dice(4, 4)))  # an ordinary roll: doubles allowed
    assert s.game.phase == "moving" and s.game.dice == Dice(4, 4)
    s = play(s, Play(game2, str(s.game.position.legal_moves((4, 4))[0])))
    s = win_game(s, game2)
    expected = (1 - game2) if rule == "loser" else game3
    assert s.game.turn == expected


def test_illegal_actions_change_nothing() -> None:
    s = play(new_match(), Roll(X, Dice(3, 1)))
    for action in (Play(O, "8/5 6/5"), Play(X, "24/16"), Double(X), Take(O), Roll(X, Dice(1, 1))):
        with pytest.raises((IllegalActionError, IllegalMoveError)):
            apply(s, action)
    assert play(s, Play(X, "8/5 6/5")).version == s.version + 1


def test_balances_are_checked_at_the_table_and_on_take() -> None:
    opts = TableOptions(stake=10, cube_limit=4, end_setting="cox")  # needs 120
    with pytest.raises(IllegalActionError, match="needs 120"):
        new_match(opts, balances=(119, 500))
    s = new_match(opts, balances=(120, 500))
    s = replace(s, balances=(50, 500), game=at(opts, Position.initial(), turn=O).game)
    s = play(s, Double(O))
    with pytest.raises(IllegalActionError, match="does not cover"):
        apply(s, Take(X))
    done = play(s, Drop(X))
    assert done.balances == (40, 510)
    assert sum(e.amount for e in done.ledger) == 0


@pytest.mark.parametrize("variant", ["standard", "plakoto", "portes", "tavli"])
def test_no_crawford_game_without_a_cube(variant: str) -> None:
    """Issue 31: a cubeless match recorded a "Crawford game" at N-1 (docs/rules.md: no
    cube, no Crawford game)."""
    opts = TableOptions(variant=variant, match_length=3, cube=False)
    assert not opts.crawford
    assert not new_match(opts, score=(2, 0)).game.crawford
    assert TableOptions.from_dict(opts.to_dict()) == opts
    if variant == "standard":
        s = win_game(replace(new_match(opts), score=(1, 0)), X)
        assert s.score == (2, 0) and not s.game.crawford and not s.crawford_reached
        s = win_game(s, O)
        assert not s.post_crawford and not any(g.crawford for g in s.games)
