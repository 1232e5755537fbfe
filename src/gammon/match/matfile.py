"""Jellyfish / gnubg ``.mat`` match files: export, lenient import, file conversion.

The action log stays the source of truth; a ``.mat`` file is a lossy view of it.
:func:`match_to_mat` writes the layout of gnubg's exporter, :func:`mat_to_record`
reads the variations of gnubg and eXtreme Gammon exports and replays every entry
through the engine, so a record it returns always replays.

>>> from gammon.dice import Dice
>>> from gammon.match import Match, Play, Roll, Double, Drop, TableOptions
>>> m = Match(TableOptions(match_length=3), players=("Alice", "Bob"))
>>> for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Roll(1, Dice(4, 2)),
...                Play(1, "13/11 13/9"), Roll(0, Dice(6, 2)), Play(0, "24/18 13/11"),
...                Double(1), Drop(0)):
...     _ = m.push(action)
>>> text = match_to_mat(m.record())
>>> for line in text.splitlines():
...     print(line.rstrip())
 3 point match
<BLANKLINE>
 Game 1
 Alice : 0                            Bob : 0
  1) 31: 8/5 6/5                      42: 13/11 13/9
  2) 62: 24/18 13/11                   Doubles => 2
  3)  Drops
                                       Wins 1 point
<BLANKLINE>
>>> back = mat_to_record(text)
>>> back.players, back.options.match_length, Match.from_record(back).state.score
(('Alice', 'Bob'), 3, (0, 1))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final, Literal

from gammon.dice import ALL_ROLLS, Dice
from gammon.errors import GammonError, IllegalActionError, InvalidNotationError, InvalidOptionsError
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
    action_to_dict,
)
from gammon.match.engine import apply, new_match
from gammon.match.options import CUBE_LIMITS, TableOptions
from gammon.match.record import MatchRecord, read_log, write_log
from gammon.match.state import GameOutcome, MatchState, Transition
from gammon.move import Step
from gammon.notation.movetext import PASS_WORDS

__all__ = ["convert_file", "mat_to_record", "match_to_mat"]

# --------------------------------------------------------------------------- transcripts
#
# Entry, Transcript, transcripts, Replayer, ReplayError and unplayable_roll are
# shared with gammon.match.sgf; they are not part of the documented API.

EntryKind = Literal["move", "double", "take", "drop", "beaver", "raccoon"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a game as the text formats write it: a roll and its move, or a cube action.

    ``steps`` is empty for a roll that could not be played (a dance); ``cube`` is
    the value offered by a double, beaver or raccoon.
    """

    player: int
    kind: EntryKind
    dice: Dice | None = None
    steps: tuple[Step, ...] = ()
    cube: int = 0


@dataclass(frozen=True, slots=True)
class Transcript:
    """One game of a record: the score and Crawford flag at its start, its entries, its end."""

    number: int
    score: tuple[int, int]
    crawford: bool
    entries: tuple[Entry, ...]
    outcome: GameOutcome | None = None
    match_over: bool = False


def transcripts(record: MatchRecord) -> list[Transcript]:
    """Replay a record and list its games as the text formats see them.

    What the formats cannot hold is left out: the roll-off ties, a roll made just
    before a resignation or an abandon, and resignations that were rejected.  A
    game in progress at the end of the record is listed without an outcome (and
    left out when nothing has been played in it yet).
    """
    state = record.initial_state()
    games: list[Transcript] = []
    entries: list[Entry] = []
    start = state
    for index, action in enumerate(record.actions, start=1):
        before = state
        try:
            transition = apply(before, action)
        except GammonError as exc:
            raise type(exc)(f"action {index} ({action_to_dict(action)}): {exc}") from None
        state = transition.state
        g = before.game
        kinds = {event.kind: event for event in transition.events}
        if isinstance(action, Roll):
            dance = kinds.get("no_move")
            if dance is not None and dance.player is not None:
                d1, d2 = dance.data["dice"]
                entries.append(Entry(dance.player, "move", Dice(d1, d2)))
        elif isinstance(action, Play):
            assert g.dice is not None
            move = g.position.parse_move(action.move, g.dice)
            entries.append(Entry(action.player, "move", g.dice, move.steps))
        elif isinstance(action, Double):
            entries.append(Entry(action.player, "double", cube=g.cube.value * 2))
        elif isinstance(action, Beaver | Raccoon):
            kind: EntryKind = "beaver" if isinstance(action, Beaver) else "raccoon"
            entries.append(Entry(action.player, kind, cube=state.game.cube.value))
        elif isinstance(action, Take):
            entries.append(Entry(action.player, "take"))
        elif isinstance(action, Drop):
            entries.append(Entry(action.player, "drop"))
        if "game_over" in kinds:
            games.append(
                Transcript(
                    g.number,
                    start.score,
                    start.game.crawford,
                    tuple(entries),
                    state.games[-1],
                    "match_over" in kinds,
                )
            )
            entries = []
            start = state
    if entries and not state.over:
        games.append(
            Transcript(state.game.number, start.score, start.game.crawford, tuple(entries))
        )
    return games


# --------------------------------------------------------------------------- export

#: Where the right-hand column starts (as in gnubg's files and ``tiny.mat``).
_RIGHT: Final = 38
#: Width of a left-hand move cell: ``"%3d) "`` takes 5 characters, the cell the rest.
_CELL: Final = _RIGHT - 5


def _plural(points: int) -> str:
    return "point" if points == 1 else "points"


def _steps_text(steps: tuple[Step, ...]) -> str:
    """gnubg's plain style: one ``from/to`` per die, highest first, bar 25, off 0, ``*`` on hits."""
    ordered = sorted(steps, key=lambda s: (-s.from_point, -s.to_point))
    return " ".join(f"{s.from_point}/{s.to_point}{'*' if s.hit else ''}" for s in ordered)


def _cell(entry: Entry) -> str:
    if entry.kind == "move":
        assert entry.dice is not None
        dice = f"{entry.dice.d1}{entry.dice.d2}:"
        return f"{dice} {_steps_text(entry.steps)}" if entry.steps else dice
    if entry.kind in ("double", "beaver", "raccoon"):
        return f" Doubles => {entry.cube}"
    return " Takes" if entry.kind == "take" else " Drops"


def _name(name: str, seat: int) -> str:
    cleaned = " ".join(name.split())
    return cleaned or f"Player {seat}"


def _tags(options: TableOptions) -> list[str]:
    """XG's ``; [Key "Value"]`` lines, written only for what differs from the defaults."""
    tags: list[tuple[str, str]] = []
    if options.variant != "standard":
        tags.append(("Variation", _VARIANT_TAGS.get(options.variant, options.variant)))
    if options.is_match and not options.crawford:
        tags.append(("Crawford", "Off"))
    if options.jacoby:
        tags.append(("Jacoby", "On"))
    if options.beaver:
        tags.append(("Beaver", "On"))
    if not options.cube:
        tags.append(("CubeLimit", "1"))
    elif options.cube_limit is not None:
        tags.append(("CubeLimit", str(options.cube_limit)))
    return [f'; [{key} "{value}"]' for key, value in tags]


def match_to_mat(record: MatchRecord) -> str:
    """The match in the ``.mat`` layout of gnubg's exporter.

    Player 0 is the left column.  A money session is headed `` 0 point match``, as
    gnubg writes it.  Moves are written one ``from/to`` per die in the mover's
    numbering (bar 25, off 0, ``*`` on hits); a dance is the dice alone.  A
    resignation, an abandon or a timeout becomes the ``Wins`` line alone; a beaver
    is written `` Doubles => 4`` (the value after the beaver) in the beaverer's
    column, a raccoon likewise; a drawn game (the last-roll option) gets no
    ``Wins`` line.  Options the layout cannot hold but eXtreme Gammon's header
    can (variant, Crawford off, Jacoby, beaver, cube limit) are written as
    ``; [Key "Value"]`` lines above the header, and only when they differ from
    the defaults.  Roll-off ties, rejected resignations and the roll made just
    before a resignation are left out.
    """
    record.options.require_backgammon_geometry(".mat")
    names = (_name(record.players[0], 0), _name(record.players[1], 1))
    lines = _tags(record.options)
    lines += [f" {record.options.match_length} point match", ""]
    for game in transcripts(record):
        lines.append(f" Game {game.number}")
        left = f"{names[0]} : {game.score[0]}"
        lines.append(
            " " + left + " " * max(1, _RIGHT - 1 - len(left)) + f"{names[1]} : {game.score[1]}"
        )
        rows: list[list[str | None]] = []
        for entry in game.entries:
            if (
                not rows
                or (entry.player == 0 and rows[-1] != [None, None])
                or rows[-1][1] is not None
            ):
                rows.append([None, None])
            rows[-1][entry.player] = _cell(entry)
        for number, (cell0, cell1) in enumerate(rows, start=1):
            left_cell = cell0 or ""
            if cell1 and len(left_cell) >= _CELL:
                left_cell += " "
            lines.append(f"{number:3d}) {left_cell:<{_CELL}}{cell1 or ''}")
        outcome = game.outcome
        if outcome is not None and outcome.winner is not None:
            text = f" Wins {outcome.points} {_plural(outcome.points)}"
            if game.match_over:
                text += " and the match"
            lines.append(" " * (5 if outcome.winner == 0 else _RIGHT) + text)
        lines.append("")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- replaying entries


class ReplayError(InvalidNotationError):
    """A file that does not replay; ``progress`` counts the actions that did."""

    def __init__(self, message: str, progress: int) -> None:
        super().__init__(message)
        self.progress = progress


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
        """Apply an action, or raise naming ``where``."""
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

    def roll(self, player: int, dice: Dice, where: str) -> None:
        """The roll of ``player``; at the start of a game, the roll-off that gives it."""
        g = self.state.game
        if g.phase == "opening":
            if dice.is_double:
                raise self.fail(
                    f"{where}: game {g.number} starts with {dice}, a double, which a one-die "
                    f"roll-off cannot give (the table's first_move rule is {self.options.first_move!r})"
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
            transition = self.push(Play(player, " ".join(text.split())), where)
            for event in transition.events:
                if event.kind == "moved":
                    self.actions[-1] = Play(player, str(event.data["move"]))
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

    def concede(self, winner: int, points: int, where: str) -> None:
        """End the current game with ``points`` to ``winner`` when the board did not end it.

        Tried in order: a drop of a pending cube; a resignation (single, gammon,
        backgammon) by the loser on turn; an abandon by the loser (scored from the
        board); when the loser wrote a move just before (gnubg records a
        resignation by a player not on roll, which our rules do not allow), a
        resignation after that move's roll, the move being left out; and, in a game with no entry, a roll-off won by
        the loser with 2-1 followed by a resignation (the exporters leave out a
        roll that was never played).
        """
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
        tries.append((Abandon(loser),))
        if self._settle(tries, winner, points, where):
            return
        last = self.actions[-1] if self.actions else None
        if (
            g.phase == "turn"
            and g.turn == winner
            and isinstance(last, Play)
            and last.player == loser
            and self._before[-1].game.number == g.number
        ):
            played = self.pop()
            if self._settle(resigns, winner, points, where):
                return
            self.push(played, where)
        tries = []
        if g.phase == "opening":
            # nothing was written: the loser won the roll-off (2-1) and resigned before moving
            roll = Roll(loser, Dice(2, 1) if loser == 0 else Dice(1, 2))
            tries += [(roll, *resign) for resign in resigns]
        if self._settle(tries, winner, points, where):
            return
        raise self.fail(
            f"{where}: player {winner} wins {points} {_plural(points)}, which neither a drop, "
            f"a resignation (single, gammon or backgammon at cube {g.cube.value}) nor an "
            f"abandon by player {loser} gives here (position {g.position.position_id()})"
        )

    def _settle(
        self, tries: list[tuple[Action, ...]], winner: int, points: int, where: str
    ) -> bool:
        """Push the first sequence of actions that ends the game with ``points`` to ``winner``."""
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
                and self.points_agree(outcome, points, state.score)
            ):
                for action in actions:
                    self.push(action, where)
                return True
        return False


# --------------------------------------------------------------------------- parsing

_HEADER: Final = re.compile(r"^\s*(\d+)\s*-?\s*points?\s+match\b", re.IGNORECASE)
_MONEY: Final = re.compile(r"^\s*(money|unlimited|cash)\b", re.IGNORECASE)
_GAME: Final = re.compile(r"^\s*game\s+(\d+)\b", re.IGNORECASE)
_TAG: Final = re.compile(r'^\s*;\s*\[\s*([^"\]]*?)\s*"(.*)"\s*\]\s*$')
_ROW: Final = re.compile(r"^\s*(\d+)\)(.*)$")
_WINS: Final = re.compile(
    r"^\s*wins\s+(\d+)\s+points?(\s+and\s+the\s+match)?\s*\.?\s*$", re.IGNORECASE
)
_SCORE: Final = re.compile(
    r"^\s*(?P<n0>\S.*?)\s*:\s*(?P<s0>\d+)\s+(?P<n1>\S.*?)\s*:\s*(?P<s1>\d+)\s*$"
)
_ANCHOR: Final = re.compile(
    r"(?<![\w/*])(?P<dice>[1-6][1-6])\s*:"
    r"|(?<![\w/])(?P<word>doubles|redoubles|beavers|raccoons|takes|accepts|drops|passes|refuses)\b"
    r"|(?<![\w/])(?P<wins>wins)\b",
    re.IGNORECASE,
)
_CUBE_VALUE: Final = re.compile(r"^(?:=>|=|->|to)?\s*(\d+)?\s*$", re.IGNORECASE)
_WORDS: Final = {
    "doubles": "double",
    "redoubles": "double",
    "beavers": "beaver",
    "raccoons": "raccoon",
    "takes": "take",
    "accepts": "take",
    "drops": "drop",
    "passes": "drop",
    "refuses": "drop",
}
_COUNTRY: Final = re.compile(r"^(?P<name>.*?)\s*\((?P<code>[A-Z]{2,3})\)$")
_VARIANT_TAGS: Final = {
    "standard": "Backgammon",
    "nackgammon": "NackGammon",
    "hypergammon": "HyperGammon",
    "caucasian": "Caucasian",
}
_FROM_TAG: Final = {tag.lower(): name for name, tag in _VARIANT_TAGS.items()}


@dataclass(frozen=True, slots=True)
class _Cell:
    line: int
    column: int
    raw: str
    dice: Dice | None = None
    text: str = ""
    word: str | None = None
    value: int | None = None


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    number: int
    cells: tuple[_Cell | None, _Cell | None]


@dataclass(frozen=True, slots=True)
class _Wins:
    line: int
    points: int
    and_match: bool
    column: int
    raw: str = ""


@dataclass(slots=True)
class _Game:
    line: int
    number: int
    score: tuple[int, int] | None = None
    names: tuple[str, str] | None = None
    right: int = _RIGHT
    rows: list[_Row] = field(default_factory=list)
    wins: _Wins | None = None


@dataclass(slots=True)
class _File:
    length: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    games: list[_Game] = field(default_factory=list)
    countries: dict[int, str] = field(default_factory=dict)


def _bad(line: int, text: str, why: str) -> InvalidNotationError:
    return InvalidNotationError(f"line {line}: {text.strip()[:80]!r}: {why}")


def _split_name(name: str, seat: int, parsed: _File) -> str:
    match = _COUNTRY.match(name)
    if match and match["name"]:
        parsed.countries.setdefault(seat, match["code"])
        return match["name"]
    return name


_WINS_TAIL: Final = re.compile(r"^(\d+)\s+points?(\s+and\s+the\s+match)?\s*\.?\s*$", re.IGNORECASE)


def _cells(
    line: int, body: str, offset: int, split: int
) -> tuple[tuple[_Cell | None, _Cell | None], _Wins | None]:
    """The left and right entries of a move row (``body`` starts at column ``offset``),
    and a ``Wins N points`` written on the same row after them (gnubg writes it so after
    a drop; online servers after a move)."""
    anchors = list(_ANCHOR.finditer(body))
    if body[: anchors[0].start() if anchors else len(body)].strip():
        raise _bad(line, body, "expected dice such as '31:' or a cube action")
    wins: _Wins | None = None
    for i, anchor in enumerate(anchors):
        if anchor["wins"]:
            tail = _WINS_TAIL.match(body[anchor.end() :].strip())
            if tail is None or i + 1 < len(anchors):
                raise _bad(line, body, "expected 'Wins N point(s)' at the end of the row")
            column = 0 if offset + anchor.start() < split else 1
            raw = body[anchor.start() :].strip()
            wins = _Wins(line, int(tail[1]), bool(tail[2]), column, raw)
            anchors = anchors[:i]
            body = body[: anchor.start()]
            break
    if len(anchors) > 2:
        raise _bad(line, body, "more than two entries on one line")
    cells: list[_Cell] = []
    for i, anchor in enumerate(anchors):
        end = anchors[i + 1].start() if i + 1 < len(anchors) else len(body)
        raw = body[anchor.start() : end].strip()
        rest = body[anchor.end() : end].strip()
        column = offset + anchor.start()
        if anchor["dice"]:
            dice = Dice(int(anchor["dice"][0]), int(anchor["dice"][1]))
            cells.append(_Cell(line, column, raw, dice=dice, text=rest))
        else:
            value = _CUBE_VALUE.match(rest)
            if value is None:
                raise _bad(line, raw, "unreadable cube action")
            word = _WORDS[anchor["word"].lower()]
            number = int(value[1]) if value[1] else None
            cells.append(_Cell(line, column, raw, word=word, value=number))
    if len(cells) == 2:
        return (cells[0], cells[1]), wins
    if not cells:
        return (None, None), wins
    return ((cells[0], None) if cells[0].column < split else (None, cells[0])), wins


def _parse(text: str) -> _File:
    parsed = _File()
    game: _Game | None = None
    lines = text.removeprefix("\ufeff").splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.expandtabs(8).rstrip()
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            tag = _TAG.match(line)
            if tag:
                parsed.tags[tag[1]] = tag[2]
            continue
        if game is None and not parsed.games:
            header = _HEADER.match(line)
            if header and parsed.length is None:
                parsed.length = int(header[1])
                continue
            if _MONEY.match(line) and parsed.length is None:
                parsed.length = 0
                continue
        start = _GAME.match(line)
        if start:
            game = _Game(number, int(start[1]))
            parsed.games.append(game)
            continue
        if game is None:
            raise _bad(number, line, "expected the 'N point match' header or 'Game 1'")
        row = _ROW.match(line)
        if row:
            if game.wins is not None:
                raise _bad(number, line, f"a move after the result of game {game.number}")
            split = (game.right + 5) // 2
            cells, wins_here = _cells(number, row[2], row.start(2), split)
            game.rows.append(_Row(number, int(row[1]), cells))
            game.wins = wins_here
            continue
        wins = _WINS.match(line)
        if wins:
            if game.wins is not None:
                raise _bad(number, line, f"a second result for game {game.number}")
            column = 0 if len(line) - len(line.lstrip()) < (game.right + 5) // 2 else 1
            game.wins = _Wins(number, int(wins[1]), bool(wins[2]), column, line.strip())
            continue
        score = _SCORE.match(line)
        if score and game.score is None and not game.rows:
            seat0 = _split_name(score["n0"], 0, parsed)
            seat1 = _split_name(score["n1"], 1, parsed)
            game.names = (seat0, seat1)
            game.score = (int(score["s0"]), int(score["s1"]))
            game.right = score.start("n1")
            continue
        raise _bad(number, line, "not a line of a .mat file")
    return parsed


# --------------------------------------------------------------------------- import


def _options_from(parsed: _File, length: int) -> TableOptions:
    tags = {key.lower(): value.strip() for key, value in parsed.tags.items()}
    values: dict[str, object] = {"match_length": length}
    variation = tags.get("variation")
    if variation is not None:
        variant = _FROM_TAG.get(variation.lower())
        if variant is None:
            raise InvalidNotationError(f"unsupported variation {variation!r} in the header")
        values["variant"] = variant

    def on(key: str) -> bool | None:
        word = tags.get(key, "").lower()
        return (
            True
            if word in ("on", "yes", "true")
            else False
            if word in ("off", "no", "false")
            else None
        )

    if length and on("crawford") is False:
        values["crawford"] = False
    if not length:
        if on("jacoby"):
            values["jacoby"] = True
        if on("beaver") or _uses(parsed, "beaver"):
            values["beaver"] = True
        if _uses(parsed, "raccoon"):
            values["beaver"] = values["raccoon"] = True
    limit = tags.get("cubelimit", "")
    if limit.isdigit():
        if int(limit) <= 1:
            values["cube"] = False
            values.pop("beaver", None)
            values.pop("raccoon", None)
        elif int(limit) in CUBE_LIMITS:
            values["cube_limit"] = int(limit)
    try:
        return TableOptions(**values)  # type: ignore[arg-type]
    except InvalidOptionsError as exc:
        raise InvalidNotationError(
            f"the header gives options that do not go together: {exc}"
        ) from None


def _uses(parsed: _File, kind: str) -> bool:
    """Whether the file shows a beaver (two offers in a row) or a raccoon (three)."""
    for game in parsed.games:
        run = 0
        for row in game.rows:
            for cell in row.cells:
                if cell is None:
                    continue
                if cell.word in ("double", "beaver", "raccoon"):
                    run += 1
                    if cell.word == kind or (kind == "beaver" and run >= 2) or run >= 3:
                        return True
                else:
                    run = 0
    return False


def _first_roll_doubles(parsed: _File) -> bool:
    for game in parsed.games[1:]:
        for row in game.rows:
            cell = next((c for c in row.cells if c is not None), None)
            if cell is not None:
                if cell.dice is None or cell.dice.is_double:
                    return True  # a double roll, or a cube action before the first roll
                break
    return False


def _candidates(parsed: _File, base: TableOptions) -> list[TableOptions]:
    """The options to try, most likely first, when the file does not say."""
    found = [base]
    if base.is_match and base.crawford and "crawford" not in {k.lower() for k in parsed.tags}:
        found.append(replace(base, crawford=False))
    if not base.is_match and base.cube and not base.jacoby:
        found.append(replace(base, jacoby=True))
    if _first_roll_doubles(parsed):
        found += [
            replace(o, first_move=rule) for rule in ("loser", "alternate") for o in list(found)
        ]
    return found


def _winner(parsed: _File, index: int, replayer: Replayer, wins: _Wins) -> int:
    """Who won a game that the board did not end: the next game's score, the match, or the column."""
    score = replayer.state.score
    if index + 1 < len(parsed.games):
        following = parsed.games[index + 1].score
        if following is not None:
            gains = (following[0] - score[0], following[1] - score[1])
            if gains[0] > 0 and gains[1] == 0:
                return 0
            if gains[1] > 0 and gains[0] == 0:
                return 1
    opts = replayer.options
    if opts.is_match and wins.and_match:
        reach = [p for p in (0, 1) if score[p] + wins.points >= opts.match_length]
        if len(reach) == 1:
            return reach[0]
    return wins.column


def _start(parsed: _File, options: TableOptions) -> tuple[int, int]:
    """The score the file starts at: its first game's (an excerpt need not start at 0-0)."""
    first = parsed.games[0].score if parsed.games else None
    if first is None or not options.is_match:
        return (0, 0)
    return first


def _build(
    parsed: _File, options: TableOptions, players: tuple[str, str], crawford: bool | None
) -> list[Action]:
    try:
        replayer = Replayer(options, _start(parsed, options), crawford)
    except IllegalActionError as exc:
        raise ReplayError(f"line {parsed.games[0].line}: {exc}", 0) from None
    for index, game in enumerate(parsed.games):
        state = replayer.state
        label = f"game {game.number}"
        if state.over:
            raise replayer.fail(f"line {game.line}: {label} comes after the end of the match")
        if game.score is not None and game.score != state.score:
            raise replayer.fail(
                f"line {game.line}: {label} starts at {game.score[0]}-{game.score[1]}, "
                f"but the games before it give {state.score[0]}-{state.score[1]}"
            )
        number = state.game.number
        slots: list[tuple[int, _Row, _Cell | None]] = [
            (seat, row, row.cells[seat]) for row in game.rows for seat in (0, 1)
        ]
        while slots and slots[-1][2] is None:
            slots.pop()
        for i, (seat, row, cell) in enumerate(slots):
            if replayer.finished(number):
                if cell is None:
                    continue
                raise replayer.fail(
                    f"line {row.line}: {label}, move {row.number}: {cell.raw!r} comes after the end of the game"
                )
            who = players[seat]
            if cell is None:
                g = replayer.state.game
                if g.phase == "turn" and g.turn == seat:
                    replayer.dance(
                        seat, f"line {row.line}: {label}, move {row.number} ({who}): blank turn"
                    )
                continue
            where = f"line {row.line}: {label}, move {row.number} ({who}): {cell.raw!r}"
            if cell.dice is not None:
                final = i == len(slots) - 1
                replayer.move(
                    seat,
                    cell.dice,
                    cell.text,
                    where,
                    last=final and game.wins is not None,
                    trailing=final and game.wins is None and index + 1 == len(parsed.games),
                )
            else:
                assert cell.word is not None
                replayer.cube(seat, cell.word, cell.value, where)
        wins = game.wins
        if replayer.finished(number):
            outcome = replayer.state.games[-1]
            if wins is not None and not replayer.points_agree(outcome, wins.points, state.score):
                raise replayer.fail(
                    f"line {wins.line}: {label}: {wins.raw!r}: the file says {wins.points} {_plural(wins.points)}, "
                    f"but the replay gives player {outcome.winner} {outcome.points}"
                )
            continue
        if wins is None:
            if index + 1 < len(parsed.games):
                raise replayer.fail(
                    f"line {game.line}: {label} has no 'Wins' line and does not end on the board"
                )
            break
        winner = _winner(parsed, index, replayer, wins)
        replayer.concede(winner, wins.points, f"line {wins.line}: {label}: {wins.raw!r}")
    return replayer.actions


def mat_to_record(text: str, *, options: TableOptions | None = None) -> MatchRecord:
    """Read a ``.mat`` match file and rebuild it as engine actions, checking every entry.

    The reader is lenient about layout: CRLF line ends, ``; [Key "Value"]``
    comment lines (eXtreme Gammon's header, also read for the variant, Crawford,
    Jacoby, beaver and cube limit), country codes after names (``Bob(USA)``, kept
    in ``meta["countries"]``), ``bar``/``off``/``(2)``/``*`` in moves, a dance
    written as the dice alone or left blank (then the first unplayable roll of
    :data:`gammon.ALL_ROLLS` is recorded), `` Beavers`` or a second
    `` Doubles => N`` for a beaver, money-session headers (`` 0 point match``,
    ``Money session``, ``Unlimited``), ``Wins N points`` at the end of a move
    row (after ``Drops`` or a move), a forced move left blank (played), a
    trailing roll with no move at the end of the file (dropped, as gnubg drops
    it), gnubg's unanswered beaver (the doubler's next roll takes it).  It is
    strict about play: every move is replayed, and one the rules refuse raises
    :class:`InvalidNotationError` naming the line, game, move number and text.

    The file has no roll-off: the first mover of each game gets a synthesised
    opening ``Roll`` whose two dice are the first roll of the game.  A game whose
    first roll is a double cannot come from a roll-off; when the options are
    inferred, the tables whose later games start without a roll-off
    (``first_move`` ``loser`` or ``alternate``) are tried, and otherwise the file
    is refused.  A game that ends with ``Wins N points`` where the board shows no
    end becomes a drop of a pending cube, else a resignation of the loser on turn
    (``Resign`` + ``AcceptResign``, level 1-3, whichever scores N), else an abandon
    by the loser, else, when the loser wrote a move just before (gnubg reads a
    resignation by the player not on roll, which our rules do not allow), a
    resignation after that move's roll with the move left out.  The winner of such a game is read from the next game's score,
    else from "and the match", else from the column of the ``Wins`` line.

    Without ``options`` the table is inferred: the header's length (0 = money),
    the header tags, beavers and raccoons seen in the file; Crawford off (matches)
    or Jacoby on (money) are tried when the plain table does not replay.
    """
    parsed = _parse(text)
    names = parsed.games[0].names if parsed.games and parsed.games[0].names else None
    names = names or ("Player 0", "Player 1")
    if options is not None:
        tries = [options]
    else:
        if parsed.length is None:
            raise InvalidNotationError("no ' N point match' header, and no options were given")
        tries = _candidates(parsed, _options_from(parsed, parsed.length))
    best: ReplayError | None = None
    for table, crawford in _with_crawford(parsed, tries):
        try:
            actions = _build(parsed, table, names, crawford)
        except ReplayError as exc:
            if best is None or exc.progress > best.progress:
                best = exc
            continue
        meta: dict[str, object] = {"source": "mat"}
        if parsed.tags:
            meta["tags"] = dict(parsed.tags)
        if parsed.countries:
            meta["countries"] = [parsed.countries.get(0, ""), parsed.countries.get(1, "")]
        return MatchRecord(
            table,
            tuple(actions),
            names,
            meta=meta,
            start_score=_start(parsed, table),
            start_crawford=crawford,
        )
    assert best is not None
    raise InvalidNotationError(str(best)) from None


def _with_crawford(
    parsed: _File, tries: list[TableOptions]
) -> list[tuple[TableOptions, bool | None]]:
    """Each table to try, with the Crawford state of the first game when the file can't tell.

    A match excerpt that starts with one side a point away may start with the
    Crawford game (tried first, the usual case) or after it.
    """
    out: list[tuple[TableOptions, bool | None]] = []
    for table in tries:
        out.append((table, None))
        try:
            crawford_first = new_match(table, score=_start(parsed, table)).game.crawford
        except IllegalActionError:
            continue  # a score the table cannot have: _build says so
        if crawford_first:
            out.append((table, False))
    return out


# --------------------------------------------------------------------------- conversion

_LOG_SUFFIXES: Final = (".jsonl", ".log")
_MAT_SUFFIXES: Final = (".mat", ".txt")


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def convert_file(src_path: str | Path, dst_path: str | Path) -> str:
    """Convert a match file; the direction comes from the extensions.

    Reads an action log (``.jsonl``, ``.log``) or a ``.mat`` file (``.mat``,
    ``.txt``) or SGF (``.sgf``); writes any of them.  Returns a
    one-line summary.  Raises :class:`InvalidNotationError` for an unknown
    extension or a file that does not read.
    """
    from gammon.match.record import replay
    from gammon.match.sgf import match_to_sgf

    src, dst = Path(src_path), Path(dst_path)
    source = src.suffix.lower()
    target = dst.suffix.lower()
    if source in _LOG_SUFFIXES:
        record = read_log(_read_text(src))
    elif source in _MAT_SUFFIXES:
        record = mat_to_record(_read_text(src))
    elif source == ".sgf":
        from gammon.match.sgf import sgf_to_record

        record = sgf_to_record(_read_text(src))
    else:
        raise InvalidNotationError(
            f"cannot read {src.name!r}: use .jsonl or .log (action log), .mat or .txt (.mat), .sgf"
        )
    if target in _LOG_SUFFIXES:
        out = write_log(record)
    elif target in _MAT_SUFFIXES:
        out = match_to_mat(record)
    elif target == ".sgf":
        out = match_to_sgf(record)
    else:
        raise InvalidNotationError(
            f"cannot write {dst.name!r}: use .jsonl or .log (action log), .mat or .txt, or .sgf"
        )
    final = replay(record)[-1]
    dst.write_text(out, encoding="utf-8")
    games = len(final.games)
    kind = (
        f"{record.options.match_length}-point match" if record.options.is_match else "money session"
    )
    return (
        f"{src} -> {dst}: {kind}, {record.players[0]} vs {record.players[1]}, "
        f"{games} game{'s' if games != 1 else ''} finished, score {final.score[0]}-{final.score[1]}, "
        f"{len(record.actions)} actions"
    )
