"""The rules' heavy work off the backgammon board runs in worker processes (issue #20).

With the bots in processes (``bot_workers`` > 0, the default), a table of a variant off the
backgammon board reads its players' moves, folds its journal entries and lists the mover's
legal moves in the hub's rules workers, which are processes at a lower priority: an
acey-deucey 1-2 never holds the interpreter lock the event loop needs.  Played here through
the WebSocket: a whole game, a move written in another form (read into its canonical
text in a worker), an illegal move (a clear error from the worker, nothing changed).
"""

from __future__ import annotations

import concurrent.futures
import pickle
from collections.abc import Iterator

import pytest

from gammon import Position
from gammon.dice import Dice
from gammon.server.protocol import ServerError
from gammon.server.table.bots import bots_available
from gammon.server.table.steps import canonical_move
from gammon.server.table.views import list_moves, moves_payload
from serverkit import Player, RunningServer, my_turn_or_finished, start_server, wait_state
from serverkit import test_settings as settings_in

pytestmark = pytest.mark.skipif(not bots_available(), reason="gammon.bots.seat is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A server whose bots, and so whose rules workers, are processes."""
    settings = settings_in(tmp_path_factory.mktemp("rules"), bot_workers=1)
    running = start_server(settings)
    yield running
    running.stop()


def test_a_server_error_crosses_from_a_worker_process_whole() -> None:
    error = ServerError("rate_limited", "too much")
    error.msg_id = 7
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), back.code, str(back), back.msg_id) == (
        ServerError,
        "rate_limited",
        "too much",
        7,
    )


def test_the_pure_functions_the_workers_run() -> None:
    position = Position.initial("plakoto")
    assert canonical_move(position, Dice(6, 5), "24/18, 24/19") == "24/19 24/18"
    assert list_moves(position, (6, 5)) == moves_payload(position, (6, 5))


def test_a_plakoto_game_in_the_rules_processes(server: RunningServer) -> None:
    me = Player(server).guest()
    try:
        table = me.create(variant="plakoto", match_length=1, opponent="bot", bot_level="beginner")
        ws = me.connect(table["id"], seed="mine")
        refused = rewritten = 0
        for _ in range(1500):
            state = wait_state(
                ws,
                my_turn_or_finished,
                timeout=60,
            )
            if state["table"]["status"] == "finished":
                break
            allowed = state["you"]["allowed"]
            if "move" not in allowed:
                msg = {"type": "accept_resign" if "accept_resign" in allowed else "roll"}
                reply = ws.reply({**msg, "version": state["version"]}, timeout=60)
                assert reply["type"] == "ack" or reply["code"] == "stale", reply
                continue
            moves = state["match"]["moves"]
            text = moves[0]["move"]
            if refused < 2:
                # not a move of this roll: refused by the worker, the table unchanged
                reply = ws.reply({"type": "move", "move": "1/0", "version": state["version"]})
                assert reply["type"] == "error" and reply["code"] == "illegal_move", reply
                assert state["table"]["variant"]["name"] in reply["message"]
                assert ws.reply({"type": "ping"})["type"] == "pong"
                assert ws.state is not None and ws.state["version"] == state["version"]
                refused += 1
            if " " in text:  # the same move written with commas: its canonical text is kept
                text = ", ".join(reversed(text.split(" ")))
                rewritten += 1
            reply = ws.reply(
                {"type": "move", "move": text, "version": state["version"]}, timeout=60
            )
            assert reply["type"] == "ack", reply
            assert ws.state is not None
            played = [
                e for e in ws.seen if e.get("type") == "event" and e["version"] == reply["version"]
            ]
            assert played and played[0]["data"]["action"]["move"] == moves[0]["move"]
        assert ws.state is not None and ws.state["table"]["status"] == "finished"
        assert refused == 2 and rewritten > 0
    finally:
        me.close()
    work = server.app.state.gammon.table.hub.work
    assert work.processes is True
    assert isinstance(work._executor, concurrent.futures.ProcessPoolExecutor)
