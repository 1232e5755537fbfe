"""Issue #30, item 3: no engine sees a rated or staked game in play.

The hint refusal of rated games was bypassed: ``/matches/{id}/mat`` downloaded the match
in play, and the file with the current roll appended, imported, had the server's analysis
give the best move.  A rated or staked match's record (the ``.mat`` file, the action log)
is now refused to its players, its spectators and anyone else while it is played (409,
``not_finished``, a translated page), and sent once it is finished; every route that
analyses or replays a table already waits for its end (checked here too, so that none
starts serving a game in play).  A casual table's record stays downloadable in play.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from serverkit import TLS, Pair, Player, RunningServer, play_move, start_pair, wait_state

#: The downloads of a table (path suffix of ``/matches/{id}``).
DOWNLOADS = ("/log", "/mat", "/sgf", "/xg")
#: Every other route that would hand a table's game to an engine or replay it.
ENGINE_ROUTES = (
    "/matches/{id}/analysis",
    "/api/tables/{id}/analysis",
    "/api/tables/{id}/analysis/progress",
    "/api/tables/{id}/replay",
    "/api/tables/{id}/deep",
    "/api/tables/{id}/rollouts",
)


def _pair(make: Callable[[], Player], **options: object) -> Pair:
    seated = iter((make(), make()))
    pair = start_pair(lambda: next(seated), **options)
    play_move(pair)  # a game really in play
    return pair


def _viewers(pair: Pair, spectator: Player, server: RunningServer) -> dict[str, httpx.Client]:
    """Each seat's player, a signed-in spectator (watching on a socket) and a stranger."""
    watching = spectator.connect(pair.table)
    wait_state(watching, lambda s: s["table"]["status"] == "playing")
    return {
        "player 0": pair.players[0].http,
        "player 1": pair.players[1].http,
        "spectator": spectator.http,
        "anonymous": httpx.Client(verify=TLS, base_url=server.url, timeout=20),
    }


def _finish(pair: Pair) -> None:
    """End the table: a player leaves (a match is lost by forfeit, a session ends)."""
    assert pair.players[0].post(f"/api/tables/{pair.table}/leave", {}).status_code == 200
    wait_state(pair.ws(0), lambda s: s["table"]["status"] == "finished")


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"match_length": 3, "rated": True}, id="rated"),
        pytest.param({"match_length": 0, "stake": 1, "cube_limit": 2}, id="staked"),
    ],
)
def test_a_rated_or_staked_match_in_play_is_downloaded_by_nobody_until_it_ends(
    server: RunningServer,
    members: Callable[[], Player],
    options: dict[str, object],
) -> None:
    pair = _pair(members, **options)
    viewers = _viewers(pair, members(), server)
    try:
        for who, http in viewers.items():
            for suffix in DOWNLOADS:
                r = http.get(f"/matches/{pair.table}{suffix}")
                assert r.status_code == 409, (who, suffix, r.status_code, r.text[:200])
                assert "engine must not see a game in play" in r.text, (who, suffix)
                assert "attachment" not in r.headers.get("content-disposition", "")
                api = http.get(
                    f"/matches/{pair.table}{suffix}", headers={"Accept": "application/json"}
                )
                assert api.json()["error"]["code"] == "not_finished", (who, suffix)
            for route in ENGINE_ROUTES:
                r = http.get(route.format(id=pair.table))
                assert r.status_code == 409, (who, route, r.status_code, r.text[:200])
            # the page says so, and offers no link to a download
            page = http.get(f"/matches/{pair.table}").text
            assert 'id="downloads-held"' in page and f"/matches/{pair.table}/mat" not in page
        # in French and Italian too, the refusal and the page
        for lang, words in (("fr", "aucun moteur"), ("it", "nessun motore")):
            r = viewers["spectator"].get(f"/matches/{pair.table}/mat", params={"lang": lang})
            assert r.status_code == 409 and words in r.text, (lang, r.text[:300])
            page = viewers["spectator"].get(f"/matches/{pair.table}", params={"lang": lang})
            assert words in page.text, lang
        # a socket's hint is refused as before (the rule these downloads follow)
        answer = pair.ws(pair.to_act()).reply({"type": "hint"})
        assert answer["type"] == "error" and answer["code"] == "hint_refused", answer

        _finish(pair)
        for who, http in viewers.items():
            for suffix in DOWNLOADS:
                r = http.get(f"/matches/{pair.table}{suffix}")
                assert r.status_code == 200, (who, suffix, r.status_code, r.text[:200])
                assert r.content, (who, suffix)
            r = http.get(f"/api/tables/{pair.table}/replay")
            assert r.status_code == 200, (who, r.text[:200])
            page = http.get(f"/matches/{pair.table}").text
            assert 'id="downloads-held"' not in page and f"/matches/{pair.table}/log" in page
    finally:
        viewers["anonymous"].close()


def test_a_casual_match_in_play_is_still_downloaded(
    server: RunningServer, members: Callable[[], Player]
) -> None:
    pair = _pair(members, match_length=3)
    for suffix in DOWNLOADS:
        r = pair.players[1].http.get(f"/matches/{pair.table}{suffix}")
        assert r.status_code == 200, (suffix, r.text[:200])
    # what the analyses need waits for the end at every table
    r = pair.players[0].http.get(f"/api/tables/{pair.table}/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
