"""gnubg's SGF dialect (``GM[6]``): export, and a small checking reader.

One game tree per game.  Points are letters seen from White's side: White
(player 0) writes its point ``p`` as ``'a' + p - 1`` and Black (player 1) as
``'x' - (p - 1)``, both in the mover's own numbering, so one physical point has
one letter; the bar is ``y`` and off is ``z``.

>>> from gammon.dice import Dice
>>> from gammon.match import Match, Play, Roll, TableOptions
>>> m = Match(TableOptions(match_length=3), players=("Alice", "Bob"))
>>> for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Roll(1, Dice(6, 1)), Play(1, "13/7 8/7")):
...     _ = m.push(action)
>>> text = match_to_sgf(m.record())
>>> print(text.replace(__version__, "VERSION"), end="")
(;FF[4]GM[6]CA[UTF-8]AP[gammon:VERSION]MI[length:3][game:0][ws:0][bs:0]PW[Alice]PB[Bob]RU[Crawford]
;W[31hefe]
;B[61lrqr])
>>> [game.moves for game in sgf_games(text)]
[(('W', '31hefe'), ('B', '61lrqr'))]
>>> Match.from_record(sgf_to_record(text)).state == m.state
True
"""

from __future__ import annotations

import re
from typing import Final

from gammon import __version__
from gammon.dice import Dice
from gammon.errors import IllegalActionError, InvalidNotationError, InvalidOptionsError
from gammon.match.engine import new_match
from gammon.match.formats.limits import ReadLimitError, small_number
from gammon.match.formats.replay import Replayer, ReplayError
from gammon.match.formats.sgftree import SgfGame, sgf_games
from gammon.match.formats.transcript import Entry, transcripts
from gammon.match.options import TableOptions
from gammon.match.record import MatchRecord

__all__ = ["SgfGame", "match_to_sgf", "sgf_games", "sgf_to_record"]

_VARIANT_RULES: Final = {
    "nackgammon": "Nackgammon",
    "hypergammon": "Hypergammon",
    "caucasian": "Caucasian",
}


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _letter(player: int, point: int) -> str:
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - (point - 1))


def _point(player: int, letter: str) -> int:
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    return ord(letter) - ord("a") + 1 if player == 0 else ord("x") - ord(letter) + 1


def _node(entry: Entry) -> str:
    if entry.kind == "move":
        assert entry.dice is not None
        steps = "".join(
            _letter(entry.player, s.from_point) + _letter(entry.player, s.to_point)
            for s in entry.steps
        )
        return f"{entry.dice.d1}{entry.dice.d2}{steps}"
    if entry.kind in ("double", "beaver", "raccoon"):
        return "double"
    return entry.kind


def match_to_sgf(record: MatchRecord) -> str:
    """The match as gnubg's SGF: one ``(;...)`` tree per game.

    The root node holds ``FF[4]GM[6]CA[UTF-8]AP[gammon:VERSION]``,
    ``MI[length:N][game:i][ws:a][bs:b]`` (``i`` counts from 0, the scores are at
    the start of the game, length 0 is money), ``PW``/``PB``, ``RU`` (``Crawford``
    and ``CrawfordGame`` in matches, ``Jacoby``, ``NoCube``, the variant name
    for a variant other than standard, and gammon's own ``Reroll`` for a table whose
    roll-off winner rolls again, joined by ``:``) and ``RE`` (``W+2``;
    ``B+1R`` when a resignation, an abandon or a timeout ended the game; ``0`` for
    a draw; none while the game goes on).  Then one node per entry: ``W[31hefe]``,
    ``B[66]`` for a dance, ``W[double]`` (also a beaver or raccoon: a double by the
    player doubled), ``B[take]``, ``B[drop]``.  Hits are not marked.
    """
    record.options.require_backgammon_geometry("SGF")
    opts = record.options
    names = [" ".join(name.split()) for name in record.players]
    trees = []
    for game in transcripts(record):
        root = (
            f"FF[4]GM[6]CA[UTF-8]AP[{_escape('gammon:' + __version__)}]"
            f"MI[length:{opts.match_length}][game:{game.number - 1}]"
            f"[ws:{game.score[0]}][bs:{game.score[1]}]"
            f"PW[{_escape(names[0])}]PB[{_escape(names[1])}]"
        )
        rules = []
        if opts.variant in _VARIANT_RULES:
            rules.append(_VARIANT_RULES[opts.variant])
        if not opts.cube:
            rules.append("NoCube")
        if opts.is_match and opts.crawford:
            rules.append("Crawford")
            if game.crawford:
                rules.append("CrawfordGame")
        if not opts.is_match and opts.jacoby:
            rules.append("Jacoby")
        if opts.opening is not None and opts.opening != opts.game_variant(1).opening:
            rules.append(opts.opening.capitalize())  # gammon's own word; gnubg ignores it
        if rules:
            root += f"RU[{':'.join(rules)}]"
        outcome = game.outcome
        if outcome is not None:
            if outcome.winner is None:
                root += "RE[0]"
            else:
                how = "R" if outcome.reason in ("resign", "abandon", "timeout") else ""
                root += f"RE[{'WB'[outcome.winner]}+{outcome.points}{how}]"
        nodes = [f";{'WB'[entry.player]}[{_node(entry)}]" for entry in game.entries]
        trees.append("\n".join(["(;" + root, *nodes]) + ")\n")
    return "".join(trees)


def _info(game: SgfGame) -> dict[str, str]:
    info = {}
    for value in game.properties.get("MI", ()):
        key, _, rest = value.partition(":")
        info[key.strip().lower()] = rest.strip()
    return info


_MOVE: Final = re.compile(r"^([1-6])([1-6])((?:[a-z][a-z]){0,4})$")
_RESULT: Final = re.compile(r"^([WB])\+(\d+)([RT]?)$", re.IGNORECASE)


def _number(digits: str, what: str) -> int:
    """A number of the file (at most :data:`~gammon.match.formats.limits.MAX_DIGITS` digits)."""
    try:
        return small_number(digits)
    except ReadLimitError as exc:
        raise ReadLimitError(f"{what}: {exc}") from None


def _options(games: list[SgfGame]) -> TableOptions:
    root = games[0]
    length_text = _info(root).get("length", "0")
    if not length_text.isdigit():
        raise InvalidNotationError(f"SGF: bad match length {length_text!r} in MI")
    length = _number(length_text, "SGF: the match length in MI")
    rules = {r.strip().lower() for v in root.properties.get("RU", ()) for r in v.split(":")}
    values: dict[str, object] = {"match_length": length}
    for variant, word in _VARIANT_RULES.items():
        if word.lower() in rules:
            values["variant"] = variant
    if "nocube" in rules:
        values["cube"] = False
    first = next((value for _, value in root.moves), "")
    if "reroll" in rules or "play" in rules:
        values["opening"] = "reroll" if "reroll" in rules else "play"
    elif _MOVE.match(first.strip().lower()) and first.strip()[0] == first.strip()[1]:
        values["opening"] = "reroll"  # game 1 starts with a double: no one-die roll-off gives it
    if length:
        values["crawford"] = "crawford" in rules
    else:
        values["jacoby"] = "jacoby" in rules
        for game in games:
            run = 0
            for _, value in game.moves:
                run = run + 1 if value.strip().lower() == "double" else 0
                if run >= 2:
                    values["beaver"] = True
                if run >= 3:
                    values["raccoon"] = True
    try:
        return TableOptions(**values)  # type: ignore[arg-type]
    except InvalidOptionsError as exc:
        raise InvalidNotationError(f"SGF: the root properties do not go together: {exc}") from None


def sgf_to_record(text: str, *, options: TableOptions | None = None) -> MatchRecord:
    """Replay an SGF match through the engine (a checking reader, used by the tests).

    It reads what :func:`match_to_sgf` writes and the move and cube nodes of
    gnubg's files; analysis, comments and other properties are ignored, setup
    (edited positions) is refused.  As in :func:`gammon.match.formats.matread.mat_to_record`,
    each game's first roll gets a synthesised roll-off, and a result the board does
    not show becomes a drop, a resignation or an abandon.  The options come from
    the first root's ``MI`` length and ``RU`` unless given; a first game that starts
    with a double (or ``RU`` ``Reroll``) is a table whose roll-off winner rolls again
    (``opening`` ``reroll``), each game's roll-off then won 2-1 by its first mover.
    """
    games = sgf_games(text)
    if not games and options is None:
        raise InvalidNotationError("SGF: no game trees")
    table = options if options is not None else _options(games)
    root = games[0].properties if games else {}
    players = (root.get("PW", ("Player 0",))[0], root.get("PB", ("Player 1",))[0])
    score, crawford = _start(games, table)
    try:
        replayer = Replayer(table, score, crawford)
    except IllegalActionError as exc:
        raise InvalidNotationError(f"SGF game 1: {exc}") from None
    try:
        for index, game in enumerate(games, start=1):
            _replay_game(replayer, index, game)
    except ReplayError as exc:
        raise InvalidNotationError(str(exc)) from None
    return MatchRecord(
        table,
        tuple(replayer.actions),
        players,
        meta={"source": "sgf"},
        start_score=score,
        start_crawford=crawford,
    )


def _start(games: list[SgfGame], table: TableOptions) -> tuple[tuple[int, int], bool | None]:
    """The score of the first game (``MI`` ``ws``/``bs``), and whether it is the Crawford game.

    A match excerpt need not start at 0-0.  gnubg and gammon write ``CrawfordGame``
    in ``RU`` for the Crawford game, so at a score where one side is a point away
    the file says which it is.
    """
    if not games or not table.is_match:
        return (0, 0), None
    info = _info(games[0])
    ws, bs = info.get("ws", "0"), info.get("bs", "0")
    if not (ws.isdigit() and bs.isdigit()):
        raise InvalidNotationError(f"SGF game 1: bad score ws:{ws!r} bs:{bs!r}")
    score = (_number(ws, "SGF: the score ws in MI"), _number(bs, "SGF: the score bs in MI"))
    rules = {
        r.strip().lower() for value in games[0].properties.get("RU", ()) for r in value.split(":")
    }
    if "crawfordgame" in rules:
        return score, True
    try:  # the score alone would make it the Crawford game: the file says it is not
        return score, False if new_match(table, score=score).game.crawford else None
    except IllegalActionError as exc:
        raise InvalidNotationError(f"SGF game 1: {exc}") from None


def _replay_game(replayer: Replayer, index: int, game: SgfGame) -> None:
    state = replayer.state
    label = f"SGF game {index}"
    info = _info(game)
    if state.over:
        raise replayer.fail(f"{label} comes after the end of the match")
    if "ws" in info and "bs" in info and (info["ws"], info["bs"]) != tuple(map(str, state.score)):
        raise replayer.fail(
            f"{label} starts at {info['ws']}-{info['bs']}, but the games before it give "
            f"{state.score[0]}-{state.score[1]}"
        )
    number = state.game.number
    result = game.properties.get("RE", ("",))[0].strip()
    for i, (colour, value) in enumerate(game.moves):
        line = game.lines[i] if i < len(game.lines) else 0
        where = f"SGF line {line}: {label}, node {i + 1}: {colour}[{value}]"
        if replayer.finished(number):
            raise replayer.fail(f"{where}: comes after the end of the game")
        player = 0 if colour == "W" else 1
        word = value.strip().lower()
        if word in ("double", "take", "drop"):
            replayer.cube(player, word, None, where)
            continue
        move = _MOVE.match(word)
        if move is None or not all(c in "abcdefghijklmnopqrstuvwxyz" for c in move[3]):
            raise replayer.fail(f"{where}: expected dice and point letters, or double/take/drop")
        letters = move[3]
        text = " ".join(
            f"{_point(player, letters[k])}/{_point(player, letters[k + 1])}"
            for k in range(0, len(letters), 2)
        )
        last = i == len(game.moves) - 1 and bool(result)
        replayer.move(player, Dice(int(move[1]), int(move[2])), text, where, last=last)
    if not result:
        return
    where = f"{label}: RE[{result[:40]}]"
    if result in ("0", "Draw", "draw"):
        if not (replayer.finished(number) and replayer.state.games[-1].winner is None):
            raise replayer.fail(f"{where}: the game is not a draw on the board")
        return
    parsed = _RESULT.match(result)
    if parsed is None:
        raise replayer.fail(f"{where}: expected a result like W+2 or B+1R")
    winner = 0 if parsed[1].upper() == "W" else 1
    points = _number(parsed[2], f"{where}: the points")
    if replayer.finished(number):
        outcome = replayer.state.games[-1]
        if outcome.winner != winner or not replayer.points_agree(outcome, points, state.score):
            raise replayer.fail(
                f"{where}: the replay gives player {outcome.winner} {outcome.points} points"
            )
        return
    replayer.concede(winner, points, where)
