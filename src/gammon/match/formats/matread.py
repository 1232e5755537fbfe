"""Reading a ``.mat`` file: a lenient parser, a strict replay, the table inferred.

>>> from gammon.match import Match
>>> text = (" 3 point match\\n\\n Game 1\\n Alice : 0                            Bob : 0\\n"
...         "  1) 31: 8/5 6/5                      42: 13/11 13/9\\n"
...         "  2) 62: 24/18 13/11                   Doubles => 2\\n"
...         "  3)  Drops\\n                                       Wins 1 point\\n")
>>> back = mat_to_record(text)
>>> back.players, back.options.match_length, Match.from_record(back).state.score
(('Alice', 'Bob'), 3, (0, 1))
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from gammon.errors import IllegalActionError, InvalidNotationError, InvalidOptionsError
from gammon.match.actions import Action
from gammon.match.engine import new_match
from gammon.match.formats.matlayout import (
    FROM_TAG,
    MatCell,
    MatFile,
    MatGame,
    MatRow,
    MatWins,
    parse_mat,
)
from gammon.match.formats.notes import ImportWarning, with_warnings
from gammon.match.formats.replay import Replayer, ReplayError, reroll_inferred
from gammon.match.formats.transcript import plural
from gammon.match.options import CUBE_LIMITS, TableOptions
from gammon.match.record import MatchRecord

__all__ = ["mat_to_record"]


def _options_from(parsed: MatFile, length: int) -> TableOptions:
    tags = {key.lower(): value.strip() for key, value in parsed.tags.items()}
    values: dict[str, object] = {"match_length": length}
    variation = tags.get("variation")
    if variation is not None:
        variant = FROM_TAG.get(variation.lower())
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

    opening = tags.get("opening", "").lower()
    if opening in ("play", "reroll"):  # gammon's own tag (matwrite); others ignore it
        values["opening"] = opening
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


def _uses(parsed: MatFile, kind: str) -> bool:
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


def _first_roll_doubles(parsed: MatFile) -> bool:
    for game in parsed.games[1:]:
        for row in game.rows:
            cell = next((c for c in row.cells if c is not None), None)
            if cell is not None:
                if cell.dice is None or cell.dice.is_double:
                    return True  # a double roll, or a cube action before the first roll
                break
    return False


def _first_game_double(parsed: MatFile) -> MatCell | None:
    """The first roll of game 1 when it is a double, which only a table whose roll-off
    winner rolls again (``opening`` ``reroll``) gives."""
    for row in parsed.games[0].rows if parsed.games else ():
        for cell in row.cells:
            if cell is not None and cell.dice is not None:
                return cell if cell.dice.is_double else None
    return None


def _candidates(parsed: MatFile, base: TableOptions) -> list[TableOptions]:
    """The options to try, most likely first, when the file does not say."""
    found = [base]
    if base.is_match and base.crawford and "crawford" not in {k.lower() for k in parsed.tags}:
        found.append(replace(base, crawford=False))
    if not base.is_match and base.cube and not base.jacoby:
        found.append(replace(base, jacoby=True))
    if base.opening != "reroll" and _first_game_double(parsed) is not None:
        # only a roll-off whose winner rolls again gives game 1 a double; such a table
        # also starts every later game as written (a double, or a double before rolling)
        return [replace(o, opening="reroll") for o in found]
    if base.opening != "reroll" and _first_roll_doubles(parsed):
        found += [
            replace(o, first_move=rule)
            for rule in ("loser", "alternate", "winner")
            for o in list(found)
        ]
    return found


def _winner(parsed: MatFile, index: int, replayer: Replayer, wins: MatWins) -> int:
    """Who won a game that the board did not end: the next game's score, the match, or
    the column of the ``Wins`` line (as gnubg reads it, even where Backgammon Galaxy
    writes its ``Losses`` line in the same column)."""
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


def _start(parsed: MatFile, options: TableOptions) -> tuple[int, int]:
    """The score the file starts at: its first game's (an excerpt need not start at 0-0)."""
    first = parsed.games[0].score if parsed.games else None
    if first is None or not options.is_match:
        return (0, 0)
    return first


#: What a transcription writes for a move nobody recorded (Backgammon Studio writes
#: ``????`` for the roll of a player who then resigned).
_UNKNOWN: Final = re.compile(r"^\?+$")


class _Build:
    """Replays a parsed file; ``strict`` refuses what the lenient reader records with a warning."""

    def __init__(
        self,
        parsed: MatFile,
        options: TableOptions,
        players: tuple[str, str],
        crawford: bool | None,
        strict: bool,
    ) -> None:
        self.parsed, self.players, self.strict = parsed, players, strict
        try:
            self.replayer = Replayer(options, _start(parsed, options), crawford)
        except IllegalActionError as exc:
            raise ReplayError(f"line {parsed.games[0].line}: {exc}", 0) from None
        self.warnings: list[ImportWarning] = []
        #: cube actions written before a game's first roll, held for the doubler's turn
        self.held: list[tuple[int, MatRow, MatCell, str]] = []

    def warn(self, line: int, game: int | None, message: str, *, exact: bool = False) -> None:
        self.warnings.append(ImportWarning(line, game, message, exact))

    def run(self) -> list[Action]:
        replayer = self.replayer
        for index, game in enumerate(self.parsed.games):
            state = replayer.state
            label = f"game {game.number}"
            if state.over:
                raise replayer.fail(f"line {game.line}: {label} comes after the end of the match")
            if game.score is not None and game.score != state.score:
                message = (
                    f"line {game.line}: {label} starts at {game.score[0]}-{game.score[1]}, "
                    f"but the games before it give {state.score[0]}-{state.score[1]}"
                )
                if self.strict or replayer.options.is_match:
                    raise replayer.fail(message)
                self.warn(
                    game.line,
                    state.game.number,
                    f"{message} (a money session's score lines are not checked)",
                    exact=True,
                )
            self.game(index, game, label)
        return replayer.actions

    def game(self, index: int, game: MatGame, label: str) -> None:
        replayer = self.replayer
        state = replayer.state
        number = state.game.number
        slots: list[tuple[int, MatRow, MatCell | None]] = [
            (seat, row, row.cells[seat]) for row in game.rows for seat in (0, 1)
        ]
        while slots and slots[-1][2] is None:
            slots.pop()
        for i, (seat, row, cell) in enumerate(slots):
            try:
                self.entry(game, index, i == len(slots) - 1, seat, row, cell, label, number)
            except ReplayError as exc:
                if self.strict:
                    raise
                self.warn(row.line, number, f"{exc}; the rest of {label} is not replayed")
                break
        if self.held:
            first = self.held[0]
            self.warn(
                first[1].line,
                number,
                f"{first[3]}: a cube action before the game's first roll that no turn of "
                f"player {first[0]} followed; left out",
            )
            self.held = []
        wins = game.wins
        if replayer.finished(number):
            outcome = replayer.state.games[-1]
            if wins is not None and not replayer.points_agree(outcome, wins.points, state.score):
                message = (
                    f"line {wins.line}: {label}: {wins.raw!r}: the file says {wins.points} "
                    f"{plural(wins.points)}, but the replay gives player {outcome.winner} "
                    f"{outcome.points}"
                )
                if self.strict:
                    raise replayer.fail(message)
                self.warn(wins.line, number, f"{message} (the board's result is kept)")
            return
        if wins is None:
            if index + 1 < len(self.parsed.games):
                raise replayer.fail(
                    f"line {game.line}: {label} has no 'Wins' line and does not end on the board"
                )
            return
        winner = _winner(self.parsed, index, replayer, wins)
        where = f"line {wins.line}: {label}: {wins.raw!r}"
        try:
            note = replayer.concede(winner, wins.points, where)
            if note:
                self.warn(wins.line, number, f"{where}: {note}")
        except ReplayError:
            if self.strict:
                raise
            note = replayer.force_result(winner, wins.points, where)
            self.warn(wins.line, number, f"{where}: {note}")

    def entry(
        self,
        game: MatGame,
        index: int,
        final: bool,
        seat: int,
        row: MatRow,
        cell: MatCell | None,
        label: str,
        number: int,
    ) -> None:
        replayer = self.replayer
        if replayer.finished(number):
            if cell is None:
                return
            raise replayer.fail(
                f"line {row.line}: {label}, move {row.number}: {cell.raw!r} comes after the end of the game"
            )
        who = self.players[seat]
        if self.held:
            self._release(cell is not None and cell.dice is None)
        if cell is None:
            g = replayer.state.game
            if g.phase == "turn" and g.turn == seat:
                replayer.dance(
                    seat, f"line {row.line}: {label}, move {row.number} ({who}): blank turn"
                )
            return
        where = f"line {row.line}: {label}, move {row.number} ({who}): {cell.raw!r}"
        if cell.dice is None:
            assert cell.word is not None
            if (replayer.state.game.phase == "opening" and not replayer.rerolls()) or self.held:
                if self.strict:
                    raise replayer.fail(
                        f"{where}: a cube action before the game's first roll (our rules "
                        "allow the first double at the start of a player's turn)"
                    )
                self.held.append((seat, row, cell, where))
                return
            replayer.cube(seat, cell.word, cell.value, where)
            return
        if _UNKNOWN.match(cell.text.strip()):
            if final and game.wins is not None:
                replayer.roll(seat, cell.dice, where)  # rolled, then resigned
                return
            raise replayer.fail(f"{where}: the move was not recorded")
        replayer.move(
            seat,
            cell.dice,
            cell.text,
            where,
            last=final and game.wins is not None,
            trailing=final and game.wins is None and index + 1 == len(self.parsed.games),
        )

    def _release(self, cube_next: bool) -> None:
        """Replay the cube actions held from before the game's first roll, at the start
        of the doubler's first turn (gnubg keeps them where the file writes them: the
        cube's value and owner are the same from that turn on)."""
        replayer = self.replayer
        g = replayer.state.game
        doubler = self.held[0][0]
        if g.phase != "turn" or g.turn != doubler:
            if cube_next and g.phase == "turn":
                first = self.held[0]
                raise replayer.fail(
                    f"{first[3]}: a cube action before the game's first roll, answered "
                    f"before player {doubler}'s first turn"
                )
            return
        held, self.held = self.held, []
        for seat, _, cell, where in held:
            assert cell.word is not None
            replayer.cube(seat, cell.word, cell.value, where)
        first = held[0]
        self.warn(
            first[1].line,
            g.number,
            f"{first[3]}: a cube action before the game's first roll, which our rules do "
            f"not allow; recorded at the start of player {doubler}'s first turn",
            exact=True,
        )


def mat_to_record(
    text: str, *, options: TableOptions | None = None, strict: bool = False
) -> MatchRecord:
    """Read a ``.mat`` match file and rebuild it as engine actions, checking every entry.

    The reader is lenient about layout: CRLF line ends, ``; [Key "Value"]``
    comment lines (eXtreme Gammon's header, also read for the variant, Crawford,
    Jacoby, beaver and cube limit), country codes after names (``Bob(USA)``, kept
    in ``meta["countries"]``), an empty name, ``bar``/``off``/``(2)``/``*`` in
    moves, a dance written as the dice alone, ``Cannot Move`` or left blank (then
    the first unplayable roll of :data:`gammon.ALL_ROLLS` is recorded),
    `` Beavers`` or a second `` Doubles => N`` for a beaver, money-session headers
    (`` 0 point match``, ``Money session``, ``Unlimited``), ``Wins N points`` at the
    end of a move row (after ``Drops`` or a move), Backgammon Galaxy's
    ``Losses N point(s)``, Backgammon Studio's empty numbered row after the
    result and its ``????`` for the roll of a player who resigned, a forced move
    left blank (played), a trailing roll with no move at the end of the file
    (dropped, as gnubg drops it), gnubg's unanswered beaver (the doubler's next
    roll takes it).  A short move with two readings (``61: 8/1`` when 8/2*/1 and
    8/7/1 are both legal) is read as gnubg reads it: the checker lands only on the
    points written.

    The file has no roll-off: the first mover of each game gets a synthesised
    opening ``Roll`` whose two dice are the first roll of the game.  A game whose
    first roll is a double cannot come from such a roll-off.  When the options are
    inferred and game 1 starts with a double, the table is one whose roll-off winner
    rolls both dice again (``opening`` ``reroll``, which gammon's own
    ``; [Opening "Reroll"]`` tag also says): each game then gets a roll-off won 2-1
    by its first mover before the first roll as written (an ``exact`` warning says
    so when the table was inferred), and a double written before a game's first
    roll is the roll-off winner's.  When a later game starts with a double, the
    tables whose later games start without a roll-off (``first_move`` ``loser``,
    ``alternate`` or ``winner``) are tried; otherwise the file is refused.  A game
    that ends with ``Wins N points`` where the board shows no
    end becomes a drop of a pending cube, else a resignation of the loser on turn
    (``Resign`` + ``AcceptResign``, level 1-3, whichever scores N), else an abandon
    by the loser, else, when the loser wrote a move just before (gnubg reads a
    resignation by the player not on roll, which our rules do not allow), a
    resignation after that move's roll with the move left out (with a warning).
    The winner of such a game is read from the next game's score, else from "and
    the match", else from the column of a ``Losses`` or the ``Wins`` line.

    What the rules cannot replay exactly is kept as gnubg keeps it, with an
    :class:`~gammon.match.formats.notes.ImportWarning` naming the line: a move
    nobody recorded (``???``), a playable roll with no move, an illegal move (the
    rest of that game is not replayed, and its written result is recorded), points
    no resignation gives (cut to 3 x the cube, as gnubg counts them), a
    resignation during the winner's turn (the entries after the loser's last
    turn are left out), a money session's score lines that are not its running
    score, a cube action before a game's first roll (recorded with its answer at the
    start of the doubler's first turn, every move kept; gnubg keeps it where it is
    written).  The warnings are in ``meta["warnings"]`` and the games they leave
    unchecked in ``meta["unchecked_games"]``.  With ``strict`` each of these is an
    :class:`InvalidNotationError` naming the line, game, move number and text.

    Without ``options`` the table is inferred: the header's length (0 = money),
    the header tags, beavers and raccoons seen in the file; Crawford off (matches)
    or Jacoby on (money) are tried when the plain table does not replay.  The
    lenient reader takes a table that replays every game exactly when there is
    one, else the one with the fewest unchecked games.
    """
    parsed = parse_mat(text)
    names = parsed.games[0].names if parsed.games and parsed.games[0].names else None
    names = names or ("Player 0", "Player 1")
    said: TableOptions | None = options
    if options is not None:
        tries = [options]
    else:
        if parsed.length is None:
            raise InvalidNotationError("no ' N point match' header, and no options were given")
        said = _options_from(parsed, parsed.length)
        tries = _candidates(parsed, said)
    best: ReplayError | None = None
    found: list[tuple[int, TableOptions, bool | None, _Build]] = []
    for lenient in (False, True) if not strict else (False,):
        for table, crawford in _with_crawford(parsed, tries):
            try:
                build = _Build(parsed, table, names, crawford, strict=not lenient)
                build.run()
            except ReplayError as exc:
                if best is None or exc.progress > best.progress:
                    best = exc
                continue
            unchecked = len({w.game for w in build.warnings if not w.exact})
            found.append((unchecked, table, crawford, build))
            if not unchecked:
                break
        if found:
            break
    if not found:
        assert best is not None
        raise InvalidNotationError(str(best)) from None
    _, table, crawford, build = min(found, key=lambda item: item[0])
    first = _first_game_double(parsed)
    if first and first.dice and said is not None and said.opening != table.opening:
        # the table is inferred, and the roll-offs' dice are not in the file: say so
        at = next((i for i, w in enumerate(build.warnings) if w.line > first.line), None)
        warning = reroll_inferred(first.line, f"line {first.line}", first.dice)
        build.warnings.insert(len(build.warnings) if at is None else at, warning)
    meta: dict[str, object] = {"source": "mat"}
    if parsed.tags:
        meta["tags"] = dict(parsed.tags)
    if parsed.countries:
        meta["countries"] = [parsed.countries.get(0, ""), parsed.countries.get(1, "")]
    record = MatchRecord(
        table,
        tuple(build.replayer.actions),
        names,
        meta=meta,
        start_score=_start(parsed, table),
        start_crawford=crawford,
    )
    return with_warnings(record, build.warnings)


def _with_crawford(
    parsed: MatFile, tries: list[TableOptions]
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
