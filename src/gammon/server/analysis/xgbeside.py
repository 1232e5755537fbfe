"""XG's own analysis beside gammon's: an imported ``.xg`` file's equities on the analysis board.

The ``.xg`` reader keeps XG's analysis in the record's ``meta["xg_analysis"]``
(:mod:`gammon.match.formats.xganalysis`), which the imported match's action log keeps
in its header.  :func:`with_xg` adds it to gammon's analysis JSON as ``"xg"``
(docs/analysis.md): one entry per decision XG analysed, placed on the record's action
index that gammon's analysis uses for the same decision (a move: its ``Play``; a
double: its ``Double``; a no double: the ``Roll`` that follows; the answer to a double:
the ``Take`` or ``Drop`` after it), with the game and the ply, XG's equities, XG's best
choice and XG's error of the choice played, and whether XG and gammon agree on the best
one.  The JSON given is not changed (a stored analysis is shared).

>>> from dataclasses import replace
>>> from gammon.dice import Dice
>>> from gammon.match import Match, Play, Roll, TableOptions
>>> from gammon.match.record import write_log
>>> m = Match(TableOptions(match_length=3))
>>> for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5")):
...     _ = m.push(action)
>>> cands = [{"move": "8/5 6/5", "equity": 0.2, "level": 2},
...          {"move": "24/21 6/5", "equity": 0.1, "level": 2}]
>>> xg = [{"at": 1, "kind": "move", "player": 0, "level": 2, "played": 1, "candidates": cands}]
>>> log = write_log(replace(m.record(), meta={"xg_analysis": xg}))
>>> ours = {"games": [{"number": 1, "decisions": [
...     {"action_index": 1, "kind": "checker", "player": 0, "best": "8/5 6/5"}]}]}
>>> out = with_xg(ours, log)["xg"]
>>> out["compared"], out["agree"], out["levels"]
(1, 1, [2])
>>> d = out["decisions"][0]
>>> (d["action_index"], d["game"], d["ply"], d["best"], d["played"], d["error"], d["agree"])
(1, 1, 0, '8/5 6/5', '24/21 6/5', 0.1, True)
>>> "xg" in ours, with_xg(ours, write_log(m.record())) is ours
(False, True)
"""

from __future__ import annotations

import math
from typing import Any

from gammon.errors import GammonError
from gammon.match.actions import Beaver, Double, Drop, Play, Roll, Take
from gammon.match.engine import allowed_actions
from gammon.match.record import MatchRecord, read_log, replay
from gammon.match.state import MatchState

__all__ = ["with_xg", "xg_decisions"]


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _level(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _checker(entry: dict[str, Any]) -> dict[str, Any] | None:
    """XG's candidates best first, its best move, the move played and XG's error of it."""
    raw = entry.get("candidates")
    if not isinstance(raw, list) or not raw:
        return None
    candidates = []
    for c in raw:
        eq = _number(c.get("equity")) if isinstance(c, dict) else None
        if eq is None or not isinstance(c.get("move"), str):
            return None
        candidates.append({"move": c["move"], "equity": eq, "level": _level(c.get("level"))})
    played = _level(entry.get("played"))
    mine = candidates[played] if played is not None and 0 <= played < len(raw) else None
    ranked = sorted(candidates, key=lambda c: -c["equity"])
    best = ranked[0]
    return {
        "candidates": ranked,
        "best": best["move"],
        "equity_best": best["equity"],
        "played": mine["move"] if mine else None,
        "error": round(best["equity"] - mine["equity"], 6) if mine else None,
    }


def _cube(entry: dict[str, Any], answer: str | None) -> dict[str, Any] | None:
    """XG's no double / double, take / double, pass (the doubler's), its right action and
    best choice for the doubler (``answer`` None) or the taker, and XG's error of it."""
    nd, dt, dp = (_number(entry.get(k)) for k in ("no_double", "double_take", "double_drop"))
    if nd is None or dt is None or dp is None:
        return None
    doubled = min(dt, dp)
    if doubled > nd:
        action = "double, take" if dt <= dp else "double, pass"
    elif nd > dp:
        action = "too good, take" if dt < dp else "too good, pass"
    else:
        action = "no double"
    out: dict[str, Any] = {"no_double": nd, "double_take": dt, "double_pass": dp}
    out["action"] = action
    if answer is None:  # the doubler's decision: XG's error of "double" or "no double"
        out["best"] = "double" if doubled > nd else "no double"
        out["errors"] = {"double": max(nd, doubled) - doubled, "no double": max(nd, doubled) - nd}
    else:  # the taker's: the doubler's equity is the taker's loss
        out["best"] = "take" if dt <= dp else "drop"
        out["errors"] = {"take": dt - doubled, "drop": dp - doubled}
    out["errors"] = {k: round(v, 6) for k, v in out["errors"].items()}
    return out


def _places(
    record: MatchRecord, states: list[MatchState], entry: dict[str, Any]
) -> list[tuple[int, str, int, str]]:
    """Where an XG entry goes: ``(action index, kind, player, played)`` per decision of
    gammon's it stands for (a cube record with a double: the double and its answer; a
    no double: the roll after it, where that player may double)."""
    actions = record.actions
    at, player = _level(entry.get("at")), _level(entry.get("player"))
    if at is None or player not in (0, 1) or not 0 <= at < len(actions):
        return []
    assert player is not None
    action = actions[at]
    if entry.get("kind") == "move":
        if not isinstance(action, Play) or action.player != player:
            return []
        game = states[at].game  # the move as gammon's analysis writes it
        text = str(game.position.parse_move(action.move, game.dice)) if game.dice else action.move
        return [(at, "checker", player, text)]
    if entry.get("kind") != "cube":
        return []
    if isinstance(action, Roll) and action.player == player:
        may = "double" in allowed_actions(states[at]).get(player, ())
        return [(at, "cube", player, "no double")] if may else []
    if not isinstance(action, Double) or action.player != player:
        return []
    out = [(at, "cube", player, "double")]
    answer = actions[at + 1] if at + 1 < len(actions) else None
    if isinstance(answer, Take | Drop | Beaver) and answer.player == 1 - player:
        word = {Take: "take", Drop: "drop", Beaver: "beaver"}[type(answer)]
        out.append((at + 1, "response", 1 - player, word))
    return out


def xg_decisions(record: MatchRecord) -> list[dict[str, Any]]:
    """XG's analysis of ``record`` (``meta["xg_analysis"]``) as the analysis board shows
    it: one entry per decision, in the record's order, with ``action_index``, ``game``,
    ``ply`` (moves played in the game before it), ``player`` and ``kind`` as gammon's
    decision there has them, and XG's ``level`` and equities.  An entry that does not
    stand on an action of its kind and player is left out."""
    raw = record.meta.get("xg_analysis")
    if not isinstance(raw, list):
        return []
    states = replay(record)
    out = []
    for entry in raw:
        if not isinstance(entry, dict):
            continue
        for at, kind, player, played in _places(record, states, entry):
            shown = (
                _checker(entry)
                if kind == "checker"
                else _cube(entry, None if kind == "cube" else played)
            )
            if shown is None:
                continue
            if kind != "checker":
                errors = shown.pop("errors")
                shown["played"] = played
                shown["error"] = errors.get(played)
            game = states[at].game
            out.append(
                {
                    "action_index": at,
                    "game": game.number,
                    "ply": game.plies,
                    "player": player,
                    "kind": kind,
                    "level": _level(entry.get("level")),
                    **shown,
                }
            )
    return out


def _agrees(xg_best: str, ours: dict[str, Any]) -> bool:
    best = ours.get("best")
    return xg_best == ("take" if best == "beaver" else best)


def with_xg(data: dict[str, Any] | None, log: str) -> dict[str, Any] | None:
    """``data`` (gammon's analysis JSON, unchanged) with XG's analysis of the match whose
    action log is ``log`` beside it as ``"xg"``: ``{"decisions": [...],
    "compared", "agree", "levels"}`` (``compared``: the decisions both judged; ``agree``:
    those where both name the same best choice; each decision's ``agree`` is None where
    gammon judged nothing).  ``data`` itself when there is none (or no analysis)."""
    if data is None or '"xg_analysis"' not in log.split("\n", 1)[0]:
        return data
    try:
        decisions = xg_decisions(read_log(log))
    except (GammonError, ValueError, KeyError, TypeError):
        return data  # a log that does not read: gammon's analysis alone
    if not decisions:
        return data
    ours = {
        (d.get("action_index"), d.get("kind")): d
        for g in data.get("games", ())
        for d in g.get("decisions", ())
    }
    compared = agree = 0
    for d in decisions:
        found = ours.get((d["action_index"], d["kind"]))
        d["agree"] = None if found is None else _agrees(d["best"], found)
        compared += found is not None
        agree += d["agree"] is True
    levels = sorted({d["level"] for d in decisions if d["level"] is not None})
    xg = {"decisions": decisions, "compared": compared, "agree": agree, "levels": levels}
    return {**data, "xg": xg}
