"""Translations of the site, server pages and browser alike: one gettext catalogue a language.

The catalogues are ``locale/<lang>/LC_MESSAGES/gammon.po`` beside this package, read with
Babel when the server starts (docs/translating.md: how to refresh them and add a language).
Templates write ``{{ t("Open tables") }}``: a page text is its own English key; the names and
codes the pages build from data have symbolic keys (``variant.standard``, ``level.expert``),
whose English is in ``en/.../gammon.po``.  An entry the browser uses carries the extracted
comment ``#. browser: <page>`` (``game``: the game and verification pages' script, which
fetches ``/i18n/<lang>.json``; ``board`` and ``position``: the texts those pages embed).
Error messages stay in English (their ``code`` is what programs read), but those people see on
the pages are translated (:func:`error_text`): entries of context ``refusal`` whose key is a
pattern of the English message.

>>> translator("fr")("Open tables")
'Tables ouvertes'
>>> translator("it")("Lobby")
'Sala'
>>> translator("en")("Lobby")
'Lobby'
>>> LANGUAGES
('en', 'fr', 'it')
>>> translator("it")("variant.caucasian"), translator("en")("variant.caucasian")
('caucasico', 'Caucasian')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

__all__ = [
    "BROWSER_PAGES",
    "ENGLISH",
    "ERRORS",
    "LANGUAGES",
    "LOCALE",
    "MESSAGES",
    "browser_catalogue",
    "browser_keys",
    "catalogue_path",
    "error_text",
    "person",
    "translator",
]

#: The folder of the catalogues: ``<lang>/LC_MESSAGES/gammon.po``.
LOCALE: Final = Path(__file__).parent.parent / "locale"
#: The languages that have a catalogue, English first (the site header's links).
LANGUAGES: Final[tuple[str, ...]] = tuple(
    sorted(
        (p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/gammon.po")),
        key=lambda lang: (lang != "en", lang),
    )
)
#: The browser pages whose texts the catalogues mark (``#. browser: game``).
BROWSER_PAGES: Final = ("game", "board", "position")
#: The context of the refusals' entries.
REFUSAL: Final = "refusal"
_MARK: Final = "browser: "


def catalogue_path(lang: str) -> Path:
    """Where the catalogue of ``lang`` lives.

    >>> catalogue_path("fr").relative_to(LOCALE).as_posix()
    'fr/LC_MESSAGES/gammon.po'
    """
    return LOCALE / lang / "LC_MESSAGES" / "gammon.po"


def _read(lang: str) -> Catalog:
    with catalogue_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain="gammon")


@dataclass(frozen=True, slots=True)
class _Loaded:
    """What the catalogues say, read once."""

    english: dict[str, str]
    messages: dict[str, dict[str, str]]
    errors: tuple[tuple[re.Pattern[str], dict[str, str]], ...]
    browser: dict[str, tuple[str, ...]]


def _load() -> _Loaded:
    catalogues = {lang: _read(lang) for lang in LANGUAGES}
    texts: dict[str, dict[str, str]] = {}
    refusals: dict[str, dict[str, str]] = {}
    browser: dict[str, list[str]] = {page: [] for page in BROWSER_PAGES}
    for lang, catalogue in catalogues.items():
        texts[lang] = {}
        for message in catalogue:
            if not message.id or not isinstance(message.id, str):
                continue
            string = message.string if isinstance(message.string, str) else ""
            if message.context == REFUSAL:
                if string:
                    refusals.setdefault(message.id, {})[lang] = string
                continue
            if string:
                texts[lang][message.id] = string
            if lang == "en":
                for comment in message.auto_comments:
                    if comment.startswith(_MARK):
                        browser[comment.removeprefix(_MARK)].append(message.id)
    refused = [m.id for m in catalogues["en"] if m.context == REFUSAL and isinstance(m.id, str)]
    return _Loaded(
        english=texts["en"],
        messages={lang: texts[lang] for lang in LANGUAGES[1:]},
        errors=tuple((re.compile(p), refusals.get(p, {})) for p in refused),
        browser={page: tuple(keys) for page, keys in browser.items()},
    )


_LOADED: Final = _load()

#: The English of the symbolic keys (``variant.standard``, ``pool.backgammon``...).
ENGLISH: Final[dict[str, str]] = _LOADED.english
#: For each language but English, every text it translates (by its English or symbolic key).
MESSAGES: Final[dict[str, dict[str, str]]] = _LOADED.messages
#: The refusals people see, as (English pattern, translations).
ERRORS: Final[tuple[tuple[re.Pattern[str], dict[str, str]], ...]] = _LOADED.errors


def translator(lang: str) -> Callable[[str], str]:
    """``t(text)`` for a language: the translation, or the English text itself."""
    table = MESSAGES.get(lang, {})

    def t(text: str) -> str:
        return table.get(text) or ENGLISH.get(text, text)

    return t


def browser_keys(page: str) -> tuple[str, ...]:
    """The keys a browser page looks up (the entries marked ``#. browser: <page>``).

    >>> "variant.plakoto" in browser_keys("game"), "Open tables" in browser_keys("game")
    (True, False)
    """
    return _LOADED.browser[page]


def browser_catalogue(page: str, lang: str) -> Mapping[str, str]:
    """A browser page's texts in ``lang``: ``{key: text}`` for :func:`browser_keys`.

    >>> browser_catalogue("game", "fr")["variant.caucasian"]
    'caucasien'
    """
    t = translator(lang)
    return {key: t(key) for key in browser_keys(page)}


def person(name: str, t: Callable[[str], str]) -> str:
    """A player's name as the pages show it: a bot's level in the page's language.

    >>> person("gammon-bot (beginner)", translator("fr")), person("ann (beginner)", translator("fr"))
    ('gammon-bot (débutant)', 'ann (beginner)')
    """
    for level in ("beginner", "intermediate", "expert", "world-class", "grandmaster"):
        if name == f"gammon-bot ({level})":
            return f"gammon-bot ({t('level.' + level)})"
    return name


def error_text(lang: str, message: str) -> tuple[str, bool]:
    """A server refusal in ``lang``: ``(text, translated)``.

    >>> error_text("fr", "raccoon needs beaver")
    ('le raccoon demande le beaver', True)
    >>> error_text("it", "beaver is a money-play option; it is refused in a 5-point match")
    ("beaver è un'opzione del gioco a soldi: non ammessa in un match a 5 punti", True)
    >>> error_text("en", "raccoon needs beaver")
    ('raccoon needs beaver', True)
    >>> error_text("fr", "something new")
    ('something new', False)
    """
    if lang not in MESSAGES:
        return message, True
    for pattern, texts in ERRORS:
        found = pattern.fullmatch(message)
        if found and lang in texts:
            groups = {k.rstrip("2"): v for k, v in found.groupdict().items() if v is not None}
            return texts[lang].format(**groups), True
    return message, False
