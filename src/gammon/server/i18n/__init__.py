"""Translations of the server-rendered pages: English (the keys), French and Italian.

Templates write ``{{ t("Open tables") }}``; error messages stay in English (their
``code`` is what programs read), but those people see on the pages are translated
(:func:`error_text`).  One module a language: :mod:`.en` (the English of the symbolic
keys), :mod:`.fr` and :mod:`.it` (every page text); :mod:`.errors` holds the refusals and
:mod:`.board` the analysis board's texts (the browser gets its language's).

>>> translator("fr")("Open tables")
'Tables ouvertes'
>>> translator("it")("Lobby")
'Sala'
>>> translator("en")("Lobby")
'Lobby'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from gammon.server.i18n import board, fr, it
from gammon.server.i18n.en import ENGLISH as _ENGLISH
from gammon.server.i18n.errors import ERRORS

__all__ = ["ENGLISH", "ERRORS", "LANGUAGES", "MESSAGES", "error_text", "translator"]

LANGUAGES: Final = ("en", "fr", "it")

#: For each language but English, every page text (the English text is the key).
MESSAGES: Final[dict[str, dict[str, str]]] = {
    "fr": fr.PAGES | board.FR,
    "it": it.PAGES | board.IT,
}

#: The English of the symbolic keys (``variant.standard``, ``cube.double, take``...).
ENGLISH: Final[dict[str, str]] = _ENGLISH | board.ENGLISH


def translator(lang: str) -> Callable[[str], str]:
    """``t(text)`` for a language: the translation, or the English text itself."""
    table = MESSAGES.get(lang, {})

    def t(text: str) -> str:
        return table.get(text) or ENGLISH.get(text, text)

    return t


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
