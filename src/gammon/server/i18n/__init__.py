"""Translations of the server-rendered pages: English (the keys), French and Italian.

Templates write ``{{ t("Open tables") }}``; error messages stay in English (their
``code`` is what programs read), but those people see on the pages are translated
(:func:`error_text`).  One module a language: :mod:`.en` (the English of the symbolic
keys), :mod:`.fr` and :mod:`.it` (every page text); :mod:`.errors` holds the refusals;
:mod:`.players` the texts of the players' pages (profiles, leaderboards, ratings),
:mod:`.contests` those of challenges and tournaments, and :mod:`.board` the analysis
board's (the browser gets its language's), in every language, merged in here.

>>> translator("fr")("Open tables")
'Tables ouvertes'
>>> translator("it")("Lobby")
'Sala'
>>> translator("en")("Lobby")
'Lobby'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from gammon.server.i18n import board, en, errors, fr, it
from gammon.server.i18n.contests import CONTEST_ENGLISH, CONTEST_ERRORS, CONTEST_MESSAGES
from gammon.server.i18n.players import PLAYER_ENGLISH, PLAYER_ERRORS, PLAYER_MESSAGES

__all__ = ["ENGLISH", "ERRORS", "LANGUAGES", "MESSAGES", "error_text", "person", "translator"]

LANGUAGES: Final = ("en", "fr", "it")

#: The English of the symbolic keys (``variant.standard``, ``pool.backgammon``...).
ENGLISH: Final[dict[str, str]] = {
    **en.ENGLISH,
    **PLAYER_ENGLISH,
    **CONTEST_ENGLISH,
    **board.ENGLISH,
}
#: For each language but English, every page text (the English text is the key).
MESSAGES: Final[dict[str, dict[str, str]]] = {
    "fr": {**fr.PAGES, **PLAYER_MESSAGES["fr"], **CONTEST_MESSAGES["fr"], **board.FR},
    "it": {**it.PAGES, **PLAYER_MESSAGES["it"], **CONTEST_MESSAGES["it"], **board.IT},
}
#: The refusals people see, as (English pattern, translations).
ERRORS: Final[tuple[tuple[re.Pattern[str], dict[str, str]], ...]] = errors.ERRORS + tuple(
    (re.compile(pattern), texts) for pattern, texts in (*PLAYER_ERRORS, *CONTEST_ERRORS)
)


def translator(lang: str) -> Callable[[str], str]:
    """``t(text)`` for a language: the translation, or the English text itself."""
    table = MESSAGES.get(lang, {})

    def t(text: str) -> str:
        return table.get(text) or ENGLISH.get(text, text)

    return t


def person(name: str, t: Callable[[str], str]) -> str:
    """A player's name as the pages show it: a bot's level in the page's language.

    >>> person("gammon-bot (beginner)", translator("fr")), person("ann (beginner)", translator("fr"))
    ('gammon-bot (débutant)', 'ann (beginner)')
    """
    for level in ("beginner", "intermediate", "expert", "world-class", "grandmaster"):
        if name == f"gammon-bot ({level})":
            return f"gammon-bot ({t('level.' + level)})"
    return name


#: What an untranslated refusal says before the server's own (English) words.
_UNTRANSLATED: Final = {"fr": "Refusé par le serveur", "it": "Rifiutato dal server"}


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
    if lang not in _UNTRANSLATED:
        return message, True
    for pattern, texts in ERRORS:
        found = pattern.fullmatch(message)
        if found:
            groups = {k.rstrip("2"): v for k, v in found.groupdict().items() if v is not None}
            return texts[lang].format(**groups), True
    return message, False
