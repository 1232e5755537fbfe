"""Refresh the translation catalogues from the sources (docs/translating.md).

Reads the keys the sources use (``babel.cfg``: the templates' and Python's ``t("...")``, the
browser scripts' ``t("...")`` and ``say("...")``), keeps every entry the catalogues have
already (keys built at run time, ``variant.`` + name, are in no source) and writes
``src/gammon/server/locale/<lang>/LC_MESSAGES/gammon.po`` for every language: a new key gets
an empty translation, for the translator to fill in (a test fails until every language has
it).  A key used by a browser script gets its page's mark (``#. browser: game`` for
static/game/ and static/verify/, ``board`` for static/analysis/, ``position`` for
static/position/).  The entries are sorted by key, the refusals (context ``refusal``) last in
their order, which is the order they are tried.

    .venv/bin/python scripts/i18n_update.py            # refresh every catalogue
    .venv/bin/python scripts/i18n_update.py --check    # exit 1 if a refresh would change one
    .venv/bin/python scripts/i18n_update.py --add de   # a new language's empty catalogue
    .venv/bin/python scripts/i18n_update.py --drop KEY # remove a key no page uses any more
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "gammon" / "server" / "locale"
KEYWORDS = {"t": None, "say": None}
REFUSAL = "refusal"
#: The browser page whose catalogue a script's keys belong to, by the script's folder.
PAGES = {"game": "game", "verify": "game", "analysis": "board", "position": "position"}


def po_path(lang: str) -> Path:
    """The catalogue of ``lang``."""
    return LOCALE / lang / "LC_MESSAGES" / "gammon.po"


def languages() -> list[str]:
    """The languages that have a catalogue, English first."""
    found = sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES" / "gammon.po").exists())
    return sorted(found, key=lambda lang: lang != "en")


def used_keys() -> dict[str, set[str]]:
    """Every key the sources use, with the browser pages that use it (empty: the server's)."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    out: dict[str, set[str]] = {}
    found = extract_from_dir(ROOT, method_map, options_map, keywords=KEYWORDS)
    for filename, _line, key, _comments, _context in found:
        if not isinstance(key, str) or not key or "${" in key:
            continue  # a key built at run time (`variant.${name}`) is in the catalogues already
        pages = out.setdefault(key, set())
        parts = Path(filename).parts
        if "static" in parts and parts[parts.index("static") + 1] in PAGES:
            pages.add(PAGES[parts[parts.index("static") + 1]])
    return out


def read(lang: str) -> Catalog:
    """The catalogue of ``lang`` as it is."""
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain="gammon")


def _marks(message: Message | None) -> list[str]:
    return [c for c in message.auto_comments if c.startswith("browser: ")] if message else []


def template(english: Catalog, used: dict[str, set[str]], drop: Iterable[str] = ()) -> Catalog:
    """The catalogues' keys: those the sources use and those English has, marked."""
    out = Catalog(domain="gammon", project="gammon", version="1", fuzzy=False)
    out.creation_date = english.creation_date
    dropped = set(drop)
    keys = {m.id for m in english if isinstance(m.id, str) and m.id and m.context != REFUSAL}
    for key in sorted((keys | set(used)) - dropped):
        old = english.get(key)
        marks = _marks(old) + [f"browser: {p}" for p in sorted(used.get(key, ()))]
        others = [c for c in old.auto_comments if not c.startswith("browser: ")] if old else []
        out.add(key, auto_comments=[*others, *sorted(set(marks), key=_page_order)])
    for message in english:
        if message.context == REFUSAL and message.id not in dropped:
            out.add(message.id, auto_comments=message.auto_comments, context=REFUSAL)
    return out


def _page_order(mark: str) -> int:
    return ["game", "board", "position"].index(mark.removeprefix("browser: "))


def refreshed(lang: str, tmpl: Catalog) -> bytes:
    """The catalogue of ``lang`` brought up to ``tmpl``, as the bytes of its file."""
    catalogue = read(lang)
    catalogue.update(tmpl, no_fuzzy_matching=True, update_header_comment=False)
    catalogue.obsolete.clear()  # keys no source uses and English lacks: gone
    return render(catalogue)


def render(catalogue: Catalog) -> bytes:
    """A catalogue as its file holds it: one line a string, no source locations."""
    out = io.BytesIO()
    write_po(out, catalogue, width=0, no_location=True, include_previous=False)
    return out.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    parser.add_argument("--add", metavar="LANG", help="start the catalogue of a new language")
    parser.add_argument("--drop", metavar="KEY", action="append", default=[])
    args = parser.parse_args()
    tmpl = template(read("en"), used_keys(), args.drop)
    if args.add:
        path = po_path(args.add)
        if path.exists():
            parser.error(f"{path} exists already")
        new = Catalog(locale=args.add, domain="gammon", project="gammon", version="1", fuzzy=False)
        path.parent.mkdir(parents=True)
        path.write_bytes(render(new))
    stale = []
    for lang in languages():
        path = po_path(lang)
        text = refreshed(lang, tmpl)
        if text != path.read_bytes():
            stale.append(lang)
            if not args.check:
                path.write_bytes(text)
        if lang != "en":
            missing = [m.id for m in read(lang) if m.id and not m.string]
            print(f"{lang}: {len(tmpl)} keys, {len(missing)} without a text", file=sys.stderr)
    if args.check and stale:
        print(f"stale catalogues: {stale} (run scripts/i18n_update.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
