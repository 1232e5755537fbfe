"""Issue #33: a count of points is never "1 points", in English, French or Italian: the
lobby's tables and Play now, a challenge in the inbox, the header's notice texts."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from gammon.server.i18n import translator
from gammon.server.i18n.plural import match_points, points
from serverkit import Player


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [("en", "1 point", "3 points"), ("fr", "1 point", "3 points"), ("it", "1 punto", "3 punti")],
)
def test_points_one_and_many(lang: str, one: str, many: str) -> None:
    t = translator(lang)
    assert (points(1, t), points(3, t)) == (one, many)
    assert "points" not in match_points(1, t) and "punti" not in match_points(1, t)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_a_one_point_table_and_challenge_are_one_point(
    members: Callable[[], Player], lang: str
) -> None:
    ann, bob = members(), members()
    ann.create(match_length=1)
    lobby = ann.http.get(f"/?lang={lang}").text
    assert not re.search(r"\b1 (points|punti)\b", lobby), lang
    assert ("1 punto" if lang == "it" else "1 point") in lobby
    r = ann.post("/api/challenges", {"opponent": bob.name, "match_length": 1})
    assert r.status_code in (200, 201), r.text
    inbox = bob.http.get(f"/inbox?lang={lang}").text
    assert "challenge" in inbox.lower() or "sfida" in inbox or "défie" in inbox
    assert not re.search(r"\b1 (points|punti)\b", inbox), lang
    # the texts the header's script and the challenge notice choose from
    assert re.search(r'"point": "1 (point|punto)"', inbox)
    assert re.search(r'data-one="1 (point|punto)" data-many="%d (points|punti)"', inbox)
