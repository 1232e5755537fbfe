"""Replaying what a text format wrote into engine actions, checking every entry.

Shared by the readers (:mod:`gammon.match.formats.matread`,
:mod:`gammon.match.formats.sgf`).  A :class:`Replayer` turns rolls, moves and
cube words into actions, and a result the board does not show into a drop, a
resignation or an abandon; a :class:`ReplayError` says how far it got.

>>> from gammon.dice import Dice
>>> from gammon.match import TableOptions
>>> r = Replayer(TableOptions(match_length=3))
>>> r.move(0, Dice(3, 1), "8/5 6/5", "move 1")
>>> r.cube(1, "double", 2, "move 2")
>>> r.concede(1, 1, "result")
>>> [type(a).__name__ for a in r.actions], r.state.score
(['Roll', 'Play', 'Double', 'Drop'], (0, 1))
"""

from __future__ import annotations

from gammon.dice import ALL_ROLLS, Dice
from gammon.errors import AmbiguousMoveError, GammonError, InvalidNotationError
from gammon.match.actions import (
    Abandon,
    AcceptResign,
    Action,
    Beaver,
    Double,
    Drop,
    Play,
    Raccoon,
    Resign,
    Roll,
    Take,
)
from gammon.match.engine import apply, new_match
from gammon.match.formats.limits import check_time
from gammon.match.formats.notes import ImportWarning
from gammon.match.formats.transcript import plural
from gammon.match.options import TableOptions
from gammon.match.state import GameOutcome, MatchState, Transition
from gammon.move import Move
from gammon.notation.movetext import PASS_WORDS, parse_move_text
from gammon.position import Position

__all__ = [
    "ReplayError",
    "Replayer",
    "read_move",
    "reroll_inferred",
    "rolloff_dice",
    "unplayable_roll",
]


class ReplayError(InvalidNotationError):
    """A file that does not replay; ``progress`` counts the actions that did."""

    def __init__(self, message: str, progress: int) -> None:
        super().__init__(message)
        self.progress = progress


def reroll_inferred(line: int, where: str, dice: Dice) -> ImportWarning:
    """The (exact) warning of a reader that read game 1's first roll, a double, as a
    table whose roll-off winner rolls again (``opening`` ``reroll``)."""
    return ImportWarning(
        line,
        1,
        f"{where}: game 1 starts with {dice}, a double, which only a table whose roll-off "
        "winner rolls both dice again gives: read with opening 'reroll'; the roll-offs are "
        "not in the file (each is recorded as won 2-1 by the game's first mover)",
        exact=True,
    )


def rolloff_dice(winner: int) -> Dice:
    """The dice of a roll-off that ``winner`` wins when the file does not say them: 2-1
    (``Roll.dice.d1`` is player 0's die)."""
    return Dice(2, 1) if winner == 0 else Dice(1, 2)


def unplayable_roll(state: MatchState) -> Dice | None:
    """The first roll (in :data:`ALL_ROLLS` order) that the player on turn cannot play."""
    position = state.game.position
    for dice in ALL_ROLLS:
        if not position.legal_moves(dice):
            return dice
    return None


class Replayer:
    """Builds engine actions from what a text format wrote, checking each one.

    Shared by the ``.mat`` and SGF readers.  ``where`` texts name the place in the
    file for error messages.
    """

    def __init__(
        self, options: TableOptions, score: tuple[int, int] = (0, 0), crawford: bool | None = None
    ) -> None:
        self.state = new_match(options, score=score, crawford=crawford)
        self.actions: list[Action] = []
        self._before: list[MatchState] = []

    @property
    def options(self) -> TableOptions:
        """The options being replayed."""
        return self.state.options

    def fail(self, message: str) -> ReplayError:
        """An error carrying how far the replay got."""
        return ReplayError(message, len(self.actions))

    def push(self, action: Action, where: str) -> Transition:
        """Apply an action, or raise naming ``where`` (or, past the reading's time bound,
        :class:`~gammon.match.formats.limits.ReadLimitError`)."""
        check_time()
        try:
            transition = apply(self.state, action)
        except GammonError as exc:
            raise self.fail(f"{where}: {exc}") from None
        self._before.append(self.state)
        self.state = transition.state
        self.actions.append(action)
        return transition

    def pop(self) -> Action:
        """Take back the last action."""
        self.state = self._before.pop()
        return self.actions.pop()

    def rerolls(self) -> bool:
        """Whether the game is at its roll-off and its winner then rolls again (the
        table's ``opening`` is ``reroll``): the roll-off's dice are then not the first
        roll, and the text formats do not write them."""
        g = self.state.game
        return g.phase == "opening" and self.options.game_opening(g.number) == "reroll"

    def rolloff(self, winner: int, where: str) -> None:
        """A roll-off that ``winner`` wins with 2-1, for a first roll that does not
        say its dice (the winner rolls again, or resigns before moving)."""
        self.push(Roll(winner, rolloff_dice(winner)), where)

    def roll(self, player: int, dice: Dice, where: str) -> None:
        """The roll of ``player``; at the start of a game, the roll-off that gives it
        (a roll-off won by ``player`` with 2-1 first, where its winner rolls again)."""
        g = self.state.game
        if self.rerolls():
            self.rolloff(player, where)
            g = self.state.game
        elif g.phase == "opening":
            if dice.is_double:
                raise self.fail(
                    f"{where}: game {g.number} starts with {dice}, a double, which a one-die "
                    f"roll-off cannot give (the table's opening rule is "
                    f"{self.options.game_opening(g.number)!r}: the roll-off's winner plays "
                    f"its two dice; its first_move rule is {self.options.first_move!r})"
                )
            hi, lo = dice.high, dice.low
            self.push(Roll(player, Dice(hi, lo) if player == 0 else Dice(lo, hi)), where)
            return
        if g.phase in ("beavered", "raccooned") and g.turn is not None:
            # gnubg writes no answer to a beaver: the doubler's roll takes it
            answer = g.turn if g.phase == "beavered" else 1 - g.turn
            if player == g.turn:
                self.push(Take(answer), where)
                g = self.state.game
        if g.phase != "turn" or g.turn != player:
            raise self.fail(f"{where}: player {player} cannot roll now ({self._expecting()})")
        self.push(Roll(player, dice), where)

    def _expecting(self) -> str:
        g = self.state.game
        if g.phase == "turn":
            return f"it is player {g.turn}'s turn to roll or double"
        if g.phase in ("doubled", "raccooned"):
            return f"player {1 - (g.turn or 0)} must answer a cube"
        if g.phase == "beavered":
            return f"player {g.turn} must answer a beaver"
        if g.phase == "over":
            return "the match is over"
        return f"the game is in phase {g.phase!r}"

    def move(
        self,
        player: int,
        dice: Dice,
        text: str,
        where: str,
        *,
        last: bool = False,
        trailing: bool = False,
    ) -> None:
        """A roll and its move.  Empty text or a pass word: a dance, or a forced move.

        With ``trailing`` (the final entry of the file, the game going on) a
        playable roll with no move is dropped, as gnubg drops it.  Otherwise it is
        played when only one move is legal (gnubg plays a forced move left blank);
        else, with ``last`` (the final entry of a game that a ``Wins`` line ends),
        it is kept as rolled: the player resigned after it.
        """
        number = self.state.game.number
        self.roll(player, dice, where)
        g = self.state.game
        passing = text.strip().lower() in PASS_WORDS
        if g.number == number and g.phase == "moving" and g.turn == player:
            if passing:
                moves = g.position.legal_moves(dice)
                if len(moves) == 1 and not trailing:
                    self.push(Play(player, str(moves[0])), where)
                    return
                if last:
                    return
                if trailing:
                    self.pop()
                    return
                raise self.fail(
                    f"{where}: the roll {dice} can be played but no move is written "
                    f"({len(moves)} legal moves, position {g.position.position_id()})"
                )
            try:
                move = read_move(g.position, " ".join(text.split()), dice)
            except GammonError as exc:
                raise self.fail(f"{where}: {exc}") from None
            self.push(Play(player, str(move)), where)
        elif not passing:
            raise self.fail(f"{where}: the roll {dice} cannot be played, so no move can follow it")

    def dance(self, player: int, where: str) -> None:
        """A turn left blank: a dance whose dice were not written (we pick an unplayable roll)."""
        dice = unplayable_roll(self.state)
        if dice is None:
            raise self.fail(
                f"{where}: a blank turn for player {player}, but every roll can be played"
            )
        self.move(player, dice, "", where)

    def cube(self, player: int, word: str, value: int | None, where: str) -> None:
        """A cube action written as ``double`` (also a beaver or raccoon), ``beaver``,
        ``raccoon``, ``take`` or ``drop``; ``value`` is the cube offered, when written."""
        if word == "double" and self.rerolls():
            self.rolloff(player, where)  # the roll-off's winner doubles before rolling
        g = self.state.game
        action: Action
        if word == "double":
            if g.phase == "doubled" and player != g.doubler:
                action = Beaver(player)
            elif g.phase == "beavered" and player == g.doubler:
                action = Raccoon(player)
            else:
                action = Double(player)
        elif word == "beaver":
            action = Raccoon(player) if g.phase == "beavered" else Beaver(player)
        elif word == "raccoon":
            action = Raccoon(player)
        elif word == "take":
            action = Take(player)
        else:
            action = Drop(player)
        offered = g.cube.value * 2 if isinstance(action, Double) else 0
        self.push(action, where)
        if isinstance(action, Beaver | Raccoon):
            offered = self.state.game.cube.value
        if value is not None and offered and value != offered:
            raise self.fail(f"{where}: the cube offered is {offered}, not {value}")

    def finished(self, number: int) -> bool:
        """Whether game ``number`` is over."""
        return self.state.game.number != number or self.state.over

    def points_agree(self, outcome: GameOutcome, points: int, score: tuple[int, int]) -> bool:
        """Whether a written result agrees with the engine's (a match may cap it at the points needed)."""
        if outcome.points == points:
            return True
        opts = self.options
        if opts.is_match and outcome.winner is not None:
            need = opts.match_length - score[outcome.winner]
            return points == min(outcome.points, need)
        return False

    def concede(self, winner: int, points: int, where: str) -> str | None:
        """End the current game with ``points`` to ``winner`` when the board did not end it.

        Tried in order: a drop of a pending cube; a resignation (single, gammon,
        backgammon) by the loser on turn; an abandon by the loser (scored from the
        board); when the loser wrote a move just before (gnubg records a
        resignation by a player not on roll, which our rules do not allow), a
        resignation after that move's roll, the move being left out; and, in a
        game with no entry, a roll-off won by the loser with 2-1 followed by a
        resignation (the exporters leave out a roll that was never played).  Each
        is tried first for exactly ``points``, then (in a match) for ``points``
        read as the points the winner needed, the resignations after the loser's move
        then coming before the abandon (gnubg counts the smallest resignation that
        reaches the match).  Returns a note when a written move was left out.
        """
        for capped in (False, True):
            done, note = self._concede(winner, points, where, capped=capped)
            if done:
                return note
        g = self.state.game
        raise self.fail(
            f"{where}: player {winner} wins {points} {plural(points)}, which neither a drop, "
            f"a resignation (single, gammon or backgammon at cube {g.cube.value}) nor an "
            f"abandon by player {1 - winner} gives here (position {g.position.position_id()})"
        )

    def _concede(
        self, winner: int, points: int, where: str, *, capped: bool
    ) -> tuple[bool, str | None]:
        loser = 1 - winner
        state = self.state
        g = state.game
        resigns: list[tuple[Action, ...]] = [
            (Resign(loser, level), AcceptResign(winner)) for level in (1, 2, 3)
        ]
        tries: list[tuple[Action, ...]] = []
        if g.phase in ("doubled", "beavered", "raccooned"):
            tries.append((Drop(loser),))
        if g.phase in ("turn", "moving") and g.turn == loser and not g.last_roll:
            tries += resigns
        # for the points the winner needed, a resignation off turn (below) comes before
        # the abandon, as gnubg counts it: the smallest that takes the winner to the
        # match (a single at cube 4 for "Wins 3 points and the match", not 12)
        abandon = (Abandon(loser),)
        if self._settle([*tries, abandon] if not capped else tries, winner, points, where, capped):
            return True, None
        last = self.actions[-1] if self.actions else None
        if (
            g.phase == "turn"
            and g.turn == winner
            and isinstance(last, Play)
            and last.player == loser
            and self._before[-1].game.number == g.number
        ):
            played = self.pop()
            if self._settle(resigns, winner, points, where, capped):
                return True, (
                    f"player {loser} resigned after the move {last.move} (not on roll, "
                    "which our rules do not allow): the move is left out"
                )
            self.push(played, where)
        if (
            g.phase == "turn"
            and g.turn == winner
            and isinstance(last, Roll)
            and last.player == loser
            and self._before[-1].game.number == g.number
            and self._before[-1].game.phase == "turn"
        ):
            # the loser danced, then resigned on the winner's turn (as gnubg records it)
            rolled = self.pop()
            if self._settle(resigns, winner, points, where, capped):
                return True, (
                    f"player {loser} resigned after the roll {last.dice}, which could not be "
                    "played (not on roll, which our rules do not allow): the roll is left out"
                )
            self.push(rolled, where)
        tries = [abandon] if capped else []
        if g.phase == "opening":
            # nothing was written: the loser won the roll-off (2-1) and resigned before moving
            roll = Roll(loser, rolloff_dice(loser))
            tries += [(roll, *resign) for resign in resigns]
        return self._settle(tries, winner, points, where, capped), None

    def force_result(self, winner: int, points: int, where: str) -> str:
        """Record a written result that :meth:`concede` cannot (the lenient reader).

        Points above what a resignation gives (3 x the cube) are cut to it, as
        gnubg counts them; then the game's last rolls and moves are taken back
        until the loser can resign for those points (never its first roll).  Cube
        actions are taken back only when that alone does not record the result:
        gnubg records a resignation by the player not on roll after a redouble
        (the loser resigns a single game at cube 4 on the winner's turn), which
        our rules take only on the loser's turn, before the redouble (a gammon at
        cube 2: the same winner and points).  Returns a note of what was changed
        or left out; raises :class:`ReplayError` when even that does not record
        the result.
        """
        cube = self.state.game.cube.value
        counted = min(points, 3 * cube)
        notes = []
        if counted != points:
            notes.append(
                f"counted {counted} {plural(counted)}, the most a resignation gives at cube "
                f"{cube} (as gnubg counts it)"
            )
        try:
            note, left = self._take_back(winner, counted, where, cube_actions=False)
        except ReplayError:
            note, left = self._take_back(winner, counted, where, cube_actions=True)
        if note:
            notes.append(note)
        if left:
            taken = ", ".join(_entry_text(a) for a in reversed(left))
            notes.append(f"left out so that player {1 - winner} can resign: {taken}")
        return "; ".join(notes)

    def _take_back(
        self, winner: int, points: int, where: str, *, cube_actions: bool
    ) -> tuple[str | None, list[Action]]:
        """Take back the game's last entries until :meth:`concede` records the result;
        on failure put them back and raise."""
        number = self.state.game.number
        kinds = (Roll, Play, Double, Take, Beaver, Raccoon) if cube_actions else (Roll, Play)
        left: list[Action] = []
        while True:
            try:
                return self.concede(winner, points, where), left
            except ReplayError as exc:
                error = exc
            before = self._before[-1] if self._before else None
            if (
                before is None
                or before.game.number != number
                or before.game.phase == "opening"
                or not isinstance(self.actions[-1], kinds)
            ):
                for action in reversed(left):
                    self.push(action, where)
                raise error
            left.append(self.pop())

    def _settle(
        self,
        tries: list[tuple[Action, ...]],
        winner: int,
        points: int,
        where: str,
        capped: bool = True,
    ) -> bool:
        """Push the first sequence of actions that ends the game with ``points`` to
        ``winner`` (with ``capped``, in a match, the points the winner needed)."""
        state = self.state
        for actions in tries:
            trial = state
            try:
                for action in actions:
                    trial = apply(trial, action).state
            except GammonError:
                continue
            outcome = trial.games[-1] if len(trial.games) > len(state.games) else None
            if (
                outcome is not None
                and outcome.winner == winner
                and (
                    self.points_agree(outcome, points, state.score)
                    if capped
                    else outcome.points == points
                )
            ):
                for action in actions:
                    self.push(action, where)
                return True
        return False


def _entry_text(action: Action) -> str:
    if isinstance(action, Roll):
        return f"the roll {action.dice} of player {action.player}"
    if isinstance(action, Play):
        return f"player {action.player}'s move {action.move}"
    return f"player {action.player}'s {type(action).__name__.lower()}"


def read_move(position: Position, text: str, dice: Dice) -> Move:
    """The legal move that ``text`` names, an ambiguous short form read as gnubg reads it.

    gnubg lands a written path's checker only on the points written: ``61: 8/1``
    is 8/7/1 when 8/2*/1 would hit (write ``8/2*/1`` for that).

    >>> p = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {24: 1, 23: 1, 13: 5, 8: 3, 6: 5})
    >>> str(read_move(p, "8/1", Dice(6, 1))), str(read_move(p, "8/2*/1", Dice(6, 1)))
    ('8/7/1*', '8/2*/1*')
    """
    try:
        return position.parse_move(text, dice)
    except AmbiguousMoveError as exc:
        ambiguous = exc
    me, them = list(position.player), list(position.opponent)
    for path in parse_move_text(text):
        for start, end in zip(path.points, path.points[1:], strict=False):
            me[start] -= 1
            me[end] += 1
            q = position.variant.point_map[end]  # 0 for off and the bar
            if q and them[q] == 1:
                them[q], them[25] = 0, them[25] + 1
    for move in position.legal_moves(dice):
        after = position.apply(move).flipped()
        if after.player == tuple(me) and after.opponent == tuple(them):
            return move
    raise ambiguous
