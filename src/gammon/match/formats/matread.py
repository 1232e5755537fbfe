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

from dataclasses import replace

from gammon.errors import IllegalActionError, InvalidNotationError, InvalidOptionsError
from gammon.match.actions import Action
from gammon.match.engine import new_match
from gammon.match.formats.matlayout import FROM_TAG, MatCell, MatFile, MatRow, MatWins, parse_mat
from gammon.match.formats.replay import Replayer, ReplayError
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


def _candidates(parsed: MatFile, base: TableOptions) -> list[TableOptions]:
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


def _winner(parsed: MatFile, index: int, replayer: Replayer, wins: MatWins) -> int:
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


def _start(parsed: MatFile, options: TableOptions) -> tuple[int, int]:
    """The score the file starts at: its first game's (an excerpt need not start at 0-0)."""
    first = parsed.games[0].score if parsed.games else None
    if first is None or not options.is_match:
        return (0, 0)
    return first


def _build(
    parsed: MatFile, options: TableOptions, players: tuple[str, str], crawford: bool | None
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
        slots: list[tuple[int, MatRow, MatCell | None]] = [
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
                    f"line {wins.line}: {label}: {wins.raw!r}: the file says {wins.points} {plural(wins.points)}, "
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
    parsed = parse_mat(text)
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
