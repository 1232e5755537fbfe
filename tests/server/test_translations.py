"""Issue #11: every string the site shows is in English, French and Italian; forms keep what
was typed and say what was wrong, in the visitor's language; the lobby shows every option and
the live scores.

The untranslated-string tests: the pages rendered in French and Italian must not show any
English text that has a translation (every text node is compared with the catalogues), the
templates must not hold bare English outside ``t()``, every name the pages build from data
(variants, bot levels, statuses, end reasons, analysis marks, error codes) must be in every
catalogue, and every key the templates, Python and the browser code use must exist in the
three languages' gettext catalogues, the browser's served from them.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import get_args

import httpx
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from gammon import VARIANTS
from gammon.match.ratings import POOLS
from gammon.match.state import EndReason
from gammon.server.analysis.runner import ANALYSIS_LEVELS
from gammon.server.i18n import (
    ENGLISH,
    LANGUAGES,
    MESSAGES,
    browser_keys,
    catalogue_path,
    error_text,
    translator,
)
from gammon.server.protocol import HTTP_STATUS
from gammon.server.table.bots import BOT_LEVELS
from serverkit import TLS, Player, RunningServer, start_pair, wait_state

ROOT = Path(__file__).parents[2] / "src" / "gammon" / "server"
TEMPLATES = ROOT / "templates"
DIALECTS = Path(__file__).parents[1] / "data" / "mat" / "dialects"
SCRIPTS = Path(__file__).parents[2] / "scripts"

#: Words that are the same in every language (names, notation, units).
SAME = {
    "gammon",
    "Backgammon",
    "PR",
    "mEMG",
    "JSON",
    "SGF",
    "XGID",
    "EN",
    "FR",
    "IT",
    "s",
    "vs",
    "KB",
}

#: The names the pages build from data, by family.
NAMES = {
    "variant": sorted(VARIANTS),
    "level": sorted({*BOT_LEVELS, *ANALYSIS_LEVELS}),
    "end": ["oin", "mars"],
    "first": ["loser", "alternate"],
    "status": ["waiting", "playing", "finished"],
    "reason": ["closed", "left", "match_over", "timeout", "idle", "balance"],
    "how": list(get_args(EndReason)),
    "mark": ["none", "doubtful", "error", "blunder"],
    "pool": list(POOLS),
}


def _po(lang: str) -> Catalog:
    """A catalogue as its file holds it, read here (not by the server's module)."""
    with catalogue_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def _symbolic(key: str) -> bool:
    """``variant.standard`` is a symbolic key; ``Analyse the match first.`` is English."""
    return re.match(r"[a-z][a-z_-]*\.\S", key) is not None


def _update_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_update", SCRIPTS / "i18n_update.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_name_built_from_data_is_in_every_catalogue() -> None:
    game = set(browser_keys("game"))
    for family, names in NAMES.items():
        for name in names:
            key = f"{family}.{name}"
            assert key in ENGLISH, f"no English for {key}"
            for lang in LANGUAGES[1:]:
                assert key in MESSAGES[lang], f"{lang} lacks {key}"
    for family in ("variant", "level"):
        for name in NAMES[family]:
            if family == "level" and name not in BOT_LEVELS:
                continue
            assert f"{family}.{name}" in game, f"the game page's catalogue lacks {family}.{name}"
    for code in HTTP_STATUS:
        assert f"error.{code}" in game, f"the game page's catalogue lacks error.{code}"
        assert f"error.{code}" in ENGLISH


def test_every_key_the_sources_use_is_in_every_catalogue_and_they_are_up_to_date() -> None:
    """The templates', Python's and the browser scripts' keys (extracted as babel.cfg says)
    have a text in every language, the browser's marked for their page; and the catalogues
    are what scripts/i18n_update.py writes (sorted, nothing stale)."""
    update = _update_script()
    used = update.used_keys()
    assert len(used) > 600
    assert sum(1 for pages in used.values() if "game" in pages) > 100
    po = {lang: _po(lang) for lang in LANGUAGES}
    for key, pages in used.items():
        english = po["en"].get(key)
        assert english is not None, f"no entry for {key!r}"
        if _symbolic(key):
            assert english.string, f"no English for {key!r}"
        marks = {c.removeprefix("browser: ") for c in english.auto_comments}
        assert pages <= marks, (key, pages, marks)
        for lang in LANGUAGES[1:]:
            entry = po[lang].get(key)
            assert entry is not None and entry.string, f"{lang} lacks {key!r}"
    template = update.template(po["en"], used)
    for lang in LANGUAGES:
        assert update.refreshed(lang, template) == catalogue_path(lang).read_bytes(), (
            f"{lang}: run scripts/i18n_update.py"
        )


def test_no_key_twice_and_every_language_has_every_key_with_its_placeholders() -> None:
    keys: dict[str, list[tuple[str | None, str]]] = {}
    for lang in LANGUAGES:
        raw = catalogue_path(lang).read_text(encoding="utf-8")
        found = re.findall(r'^(?:msgctxt "(.*)"\n)?msgid "(.*)"$', raw, re.MULTILINE)
        keys[lang] = [(context or None, key) for context, key in found if key]
        twice = sorted({k for k in keys[lang] if keys[lang].count(k) > 1})
        assert not twice, (lang, twice)
        assert len(keys[lang]) > 1000
    assert keys["fr"] == keys["en"] == keys["it"]
    po = {lang: _po(lang) for lang in LANGUAGES}
    for message in po["en"]:
        if not message.id or not isinstance(message.id, str):
            continue
        english = message.string or message.id
        if message.context == "refusal":
            wanted = set(re.compile(message.id).groupindex)
            wanted = {name.rstrip("2") for name in wanted}
        else:
            wanted = set(re.findall(r"\{(\w+)\}|(%d)", english))
            wanted = {a or b for a, b in wanted}
        for lang in LANGUAGES[1:]:
            text = po[lang].get(message.id, message.context).string
            have = {a or b for a, b in re.findall(r"\{(\w+)\}|(%d)", text)}
            if message.context == "refusal":
                assert have <= wanted, (lang, message.id, text)
            else:
                assert have == wanted, (lang, message.id, text)


def test_the_browser_gets_the_catalogues_entries_for_its_page(server: RunningServer) -> None:
    """``/i18n/<lang>.json`` is the entries marked ``browser: game``, read from the .po here;
    the keys once in two catalogues have one text (issue #31)."""
    english = {m.id: m.string or m.id for m in _po("en") if m.id and not m.context}
    game = {m.id for m in _po("en") if "browser: game" in m.auto_comments and isinstance(m.id, str)}
    assert len(game) > 300
    with httpx.Client(verify=TLS, base_url=server.url, timeout=20) as web:
        for lang in LANGUAGES:
            answer = web.get(f"/i18n/{lang}.json")
            assert answer.status_code == 200
            assert answer.headers["content-type"] == "application/json"
            assert answer.headers["cache-control"] == "no-cache"
            own = {m.id: m.string for m in _po(lang) if m.id and not m.context and m.string}
            assert answer.json() == {k: own.get(k) or english[k] for k in game}, lang
            again = web.get(f"/i18n/{lang}.json", headers={"If-None-Match": answer.headers["etag"]})
            assert again.status_code == 304 and not again.content
        fr, it = web.get("/i18n/fr.json").json(), web.get("/i18n/it.json").json()
        assert web.get("/i18n/de.json").status_code == 404
    assert fr["reason.timeout"] == translator("fr")("reason.timeout") == "temps écoulé"
    assert it["variant.caucasian"] == translator("it")("variant.caucasian") == "caucasico"
    assert fr["status.waiting_opponent"].startswith("En attente d'un adversaire")
    assert translator("fr")("status.waiting") == "en attente"


class _Text(HTMLParser):
    """The visible text nodes of a page (not scripts, styles, code, nor ``lang=en`` parts)."""

    SKIP = frozenset({"script", "style", "code", "title"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"br", "input", "meta", "link", "img", "hr"}:
            return
        english = dict(attrs).get("lang") == "en" and tag != "html"
        self.stack.append((tag, english or tag in self.SKIP))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if any(skip for _tag, skip in self.stack):
            return
        text = " ".join(data.split())
        if text:
            self.texts.append(text)


def _english_with_a_translation(lang: str) -> set[str]:
    t = translator(lang)
    english = {k for k, v in MESSAGES[lang].items() if k not in ENGLISH and v != k}
    english |= {v for k, v in ENGLISH.items() if t(k) != v}
    return {e for e in english if e not in SAME and len(e) > 1}


def _untranslated(html: str, lang: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    english = _english_with_a_translation(lang)
    pieces = set()
    for text in parser.texts:
        pieces.add(text)
        pieces |= {p.strip(" ·,:;()") for p in re.split(r"[·,:;()]", text)}
    return sorted(p for p in pieces if p in english)


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found
    return found.group(1)


def test_the_detector_finds_english() -> None:
    page = "<p>Open tables</p><p lang='en'>Sign in</p><code>Lobby</code><p>Partie · Live games</p>"
    assert _untranslated(page, "fr") == ["Live games", "Open tables"]
    assert _untranslated("<td>Caucasian</td>", "it") == ["Caucasian"]


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_pages_in_french_and_italian_show_no_english(server: RunningServer, lang: str) -> None:
    with httpx.Client(
        verify=TLS, base_url=server.url, timeout=20, cookies={"gammon_lang": lang}
    ) as web:
        token = _csrf(web.get("/").text)
        made = web.post(
            "/tables",
            data={
                "csrf_token": token,
                "variant": "nackgammon",
                "match_length": "0",
                "stake": "1",
                "cube": "on",
                "cube_limit": "8",
                "jacoby": "on",
                "beaver": "on",
                "end_setting": "mars",
                "first_move": "loser",
                "draw_last_roll": "on",
                "clock": "on",
                "opponent": "human",
            },
        )
        assert made.status_code == 303, made.text
        table = made.headers["location"].rsplit("/", 1)[1]
        pages = {
            "lobby": web.get("/"),
            "watch": web.get("/watch"),
            "signup": web.get("/signup"),
            "signin": web.get("/signin"),
            "account": web.get("/account"),
            "leaderboard": web.get("/leaderboard"),
            "profile": web.get(f"/@/{web.get('/api/session').json()['user']['name']}"),
            "match": web.get(f"/matches/{table}"),
            "table": web.get(f"/table/{table}"),
            "bad form": web.post(
                "/tables",
                data={"csrf_token": _csrf(web.get("/").text), "match_length": "5", "beaver": "on"},
            ),
            "bad sign-up": web.post(
                "/signup",
                data={
                    "csrf_token": _csrf(web.get("/signup").text),
                    "username": "x",
                    "password": "p",
                },
            ),
        }
        # an imported match file (issue #16), and the import form
        sent = web.post(
            "/import",
            data={"csrf_token": _csrf(web.get("/import").text)},
            files={"file": ("m.mat", (DIALECTS / "hand_unknown.mat").read_bytes())},
        )
        assert sent.status_code == 303, sent.text
        pages["import"] = web.get("/import")
        pages["imported"] = web.get(sent.headers["location"])
        for name, page in pages.items():
            assert f'lang="{lang}"' in page.text, name
            assert not _untranslated(page.text, lang), (name, _untranslated(page.text, lang))
        # the lobby lists the table with every option, by their names in the language
        lobby = unescape(pages["lobby"].text)
        t = translator(lang)
        for key in ("variant.nackgammon", "end.mars", "first.loser", "draw with the last roll"):
            assert t(key) in lobby, key


def test_templates_hold_no_bare_english() -> None:
    allowed = SAME | {"PR", "mEMG", "Jellyfish", "gnubg", "openssl", "gammon-bot"}
    for page in TEMPLATES.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        text = re.sub(r"\{% block body_attrs %\}.*?\{% endblock %\}", " ", text)
        text = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", text, flags=re.DOTALL)
        text = re.sub(r"<(script|style|code)\b.*?</\1>", " ", text, flags=re.DOTALL)
        text = re.sub(r"<[^>]*>", " ", text)
        words = {w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", text) if w not in allowed}
        words = {w for w in words if not re.fullmatch(r"\d*-?ply", w)}
        assert not words, (page.name, sorted(words))


def test_server_refusals_are_translated() -> None:
    assert error_text("fr", "a password has 8 to 200 characters") == (
        "un mot de passe a de 8 à 200 caractères",
        True,
    )
    assert error_text("it", "stakes are per point of a money session; a match has none")[1]
    assert error_text("fr", "unheard of") == ("unheard of", False)


def test_a_refused_form_comes_back_filled_in_with_the_reason(server: RunningServer) -> None:
    with httpx.Client(
        verify=TLS, base_url=server.url, timeout=20, cookies={"gammon_lang": "fr"}
    ) as web:
        token = _csrf(web.get("/").text)
        bad = web.post(
            "/tables",
            data={
                "csrf_token": token,
                "variant": "nackgammon",
                "match_length": "7",
                "beaver": "on",
                "cube": "on",
                "end_setting": "oin",
                "first_move": "alternate",
                "clock": "on",
                "clock_delay": "9",
                "seat": "1",
                "private": "on",
            },
        )
        assert bad.status_code == 400
        html = unescape(bad.text)
        assert 'data-testid="form-error"' in html
        assert "beaver est une option des parties d'argent" in html
        assert 'id="create-table"' in html  # the lobby's form, not an error page
        assert re.search(r'<option value="nackgammon" selected>', html)
        assert 'name="match_length" min="0" max="255" value="7"' in html
        assert re.search(r'name="beaver" checked', html)
        assert not re.search(r'name="crawford" checked', html)  # it was not sent: unticked
        assert re.search(r'<option value="oin" selected>', html)
        assert re.search(r'<option value="alternate" selected>', html)
        assert 'name="clock_delay" min="0" step="any" value="9"' in html
        assert re.search(r'<option value="1" selected>', html)
        assert re.search(r'name="private" checked', html)

        signup = web.post(
            "/signup", data={"csrf_token": _csrf(web.get("/signup").text), "username": "ab"}
        )
        assert signup.status_code == 400
        assert "un nom d'utilisateur a de 3 à 20 lettres" in unescape(signup.text)
        assert 'value="ab"' in signup.text


def test_the_lobby_lists_refresh_as_a_fragment(server: RunningServer) -> None:
    with httpx.Client(verify=TLS, base_url=server.url, timeout=20) as web:
        lobby = web.get("/")
        assert 'id="lobby-lists"' in lobby.text and "/static/lobby.js" in lobby.text
        fragment = web.get("/lobby/tables")
        assert fragment.status_code == 200
        assert "<html" not in fragment.text and "Open tables" in fragment.text


def test_a_finished_match_page_names_how_each_game_ended(
    players: Callable[[], Player], server: RunningServer
) -> None:
    pair = start_pair(players, match_length=1)
    seat = pair.to_act()
    ws, other = pair.ws(seat), pair.ws(1 - seat)
    state = wait_state(ws, lambda s: "resign" in s["you"]["allowed"])
    assert ws.reply({"type": "resign", "level": 2, "version": state["version"]})["type"] == "ack"
    state = wait_state(other, lambda s: "accept_resign" in s["you"]["allowed"])
    assert other.reply({"type": "accept_resign", "version": state["version"]})["type"] == "ack"
    wait_state(ws, lambda s: s["table"]["status"] == "finished")
    for lang in ("fr", "it"):
        page = httpx.get(f"{server.url}/matches/{pair.table}?lang={lang}", timeout=20).text
        assert not _untranslated(page, lang), _untranslated(page, lang)
        # the players' profiles list the match (issue #17), in the language too
        name = pair.players[0].name
        profile = httpx.get(f"{server.url}/@/{name}?lang={lang}", timeout=20).text
        assert f'data-table="{pair.table}"' in profile
        assert not _untranslated(profile, lang), _untranslated(profile, lang)
        t = translator(lang)
        for key in ("how.resign", "status.finished", "reason.match_over"):
            assert t(key) in unescape(page), (lang, key)
