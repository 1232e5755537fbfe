"""``gammon.rules.board``: the backgammon board's steps of each play, kept for reuse."""

from __future__ import annotations

from gammon import Dice, Position, movegen


def test_the_steps_of_a_roll_are_worked_out_once_for_its_listing_and_its_play() -> None:
    """A server lists a roll's moves (their text needs the steps), then writes the move
    played: the second asks the kept steps, from another Position equal to the first."""
    start = Position.initial()
    dice = Dice(6, 5)
    listed = start.rules.raw_plays(start, dice)
    again = Position.from_position_id(start.position_id())
    assert again.rules.raw_plays(again, dice) is listed
    assert listed == movegen.generic_plays(
        list(start.player), list(start.opponent[::-1]), 6, 5, "none"
    )
    played = again.parse_move("24/13", dice)
    assert str(played) == "24/13" and played.steps[0].from_point == 24


def test_kept_steps_follow_the_variant_rules() -> None:
    """The same checkers and dice in Caucasian backgammon (its hitter rule) and in the
    standard game have other plays: each variant is given its own."""
    dice = Dice(2, 5)
    found = []
    for variant in ("standard", "caucasian"):
        position = Position.from_position_id("pE8PAwgln+AAGQ", variant)
        expected = movegen.generic_plays(
            list(position.player), list(position.opponent[::-1]), 2, 5, position.variant.hitter_rule
        )
        found.append(position.rules.raw_plays(position, dice))
        assert found[-1] == expected
    assert len(found[0]) == 20 and len(found[1]) == 19
