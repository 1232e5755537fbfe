"""Convert the old translation catalogues (Python dicts and the browser's .js files) to the
gettext catalogues src/gammon/server/locale/<lang>/LC_MESSAGES/gammon.po (issue #31).

The old catalogues were ``src/gammon/server/i18n/*.py`` (the server's: English of the symbolic
keys, French and Italian of every page text, the refusals as patterns, the analysis board's and
the position page's key lists) and ``src/gammon/server/static/game/i18n/{en,fr,it}.js`` (the
game page's).  This script reads them as they are at a git revision and writes one ``.po`` a
language; it prints every key it had to resolve (two catalogues, two texts).

    .venv/bin/python scripts/i18n_to_po.py --rev 3326ee0          # write the .po files afresh
    .venv/bin/python scripts/i18n_to_po.py --rev other-branch --merge

``--merge`` keeps the .po files and adds only what they lack (keys another branch added to
the old catalogues; the lead's port), then prints the keys whose text differs.  Afterwards
run scripts/i18n_update.py to order and check them.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
OLD_PY = "src/gammon/server/i18n"
OLD_JS = "src/gammon/server/static/game/i18n"
LOCALE = ROOT / "src" / "gammon" / "server" / "locale"
LANGS = ("en", "fr", "it")
REFUSAL = "refusal"
REFUSAL_NOTE = "a refusal: a pattern of the English; write (?P<name>...) as {name}"

#: Keys of the game page (browser) renamed because the server's same key meant something else.
RENAMED_JS = {"status.waiting": "status.waiting_opponent"}
#: One text for a key the two catalogues translated differently (issue #31, item 4).
RESOLVED = {
    # how.timeout is "temps écoulé" too; "time is up" in French
    ("fr", "reason.timeout"): "temps écoulé",
    # like the other names, masculine: (il backgammon) caucasico, (greco), (americano)
    ("it", "variant.caucasian"): "caucasico",
}


@dataclass
class Entry:
    """One message: its key, its text in each language, the browser pages that use it."""

    key: str
    context: str | None = None
    text: dict[str, str] = field(default_factory=dict)
    pages: list[str] = field(default_factory=list)


def _git_files(rev: str, folder: str, into: Path, rename: tuple[str, str] | None) -> list[Path]:
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{rev}:{folder}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    out = []
    for name in names:
        text = subprocess.run(
            ["git", "show", f"{rev}:{folder}/{name}"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        if rename:
            text = text.replace(*rename)
        path = into / name
        path.write_text(text, encoding="utf-8")
        out.append(path)
    return out


def _js_catalogue(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    start = text.index("export default {")
    body = text[start : text.index("\n};", start)]
    entries = re.findall(r'^  ("[^"]+"): ("(?:[^"\\]|\\.)*"),$', body, re.MULTILINE)
    if len(entries) != body.count("\n  "):
        raise SystemExit(f"{path.name} has lines this script cannot read")
    return {json.loads(k): json.loads(v) for k, v in entries}


def old_entries(rev: str) -> list[Entry]:
    """Every message of the old catalogues at ``rev``, one entry a key, conflicts resolved."""
    with tempfile.TemporaryDirectory() as tmp:
        package = Path(tmp) / "_old_i18n"
        package.mkdir()
        _git_files(rev, OLD_PY, package, ("gammon.server.i18n", "_old_i18n"))
        js_dir = Path(tmp) / "js"
        js_dir.mkdir()
        _git_files(rev, OLD_JS, js_dir, None)
        sys.path.insert(0, tmp)
        try:
            old = importlib.import_module("_old_i18n")
            board = importlib.import_module("_old_i18n.board")
            positions = importlib.import_module("_old_i18n.positions")
        finally:
            sys.path.remove(tmp)
        js = {lang: _js_catalogue(js_dir / f"{lang}.js") for lang in LANGS}

    entries: dict[str, Entry] = {}
    for lang in ("fr", "it"):
        for key, text in old.MESSAGES[lang].items():
            entries.setdefault(key, Entry(key)).text[lang] = text
    for key, text in old.ENGLISH.items():
        entries.setdefault(key, Entry(key)).text["en"] = text
    for page, keys in (("board", board.BOARD_TEXTS), ("position", positions.POSITION_TEXTS)):
        for key in keys:
            entries.setdefault(key, Entry(key)).pages.append(page)
    for key in js["en"]:
        name = RENAMED_JS.get(key, key)
        if name != key:
            print(f"renamed: the game page's {key!r} is {name!r} (the server's means another text)")
        server = name in entries
        entry = entries.setdefault(name, Entry(name))
        entry.pages.insert(0, "game")
        for lang in LANGS:
            mine = js[lang][key]
            theirs = entry.text.get(lang, key if lang == "en" else None)
            if server and theirs is not None and theirs != mine:
                chosen = RESOLVED[lang, name]
                print(
                    f"resolved {lang} {name!r}: server {theirs!r}, browser {mine!r} -> {chosen!r}"
                )
                mine = chosen
            entry.text[lang] = mine
    for key, text in RESOLVED.items():
        entries[key[1]].text[key[0]] = text
    for entry in entries.values():
        if entry.text.get("en") == entry.key:
            del entry.text["en"]  # an English text is its own key
    refusals = [
        Entry(pattern.pattern, REFUSAL, {lang: texts[lang] for lang in ("fr", "it")})
        for pattern, texts in old.ERRORS
    ]
    return [*entries.values(), *refusals]


def catalog(lang: str) -> Catalog:
    """An empty catalogue for ``lang`` with gammon's header."""
    return Catalog(
        locale=lang,
        domain="gammon",
        project="gammon",
        version="1",
        copyright_holder="the gammon authors",
        msgid_bugs_address="https://github.com/gammon/gammon/issues",
        fuzzy=False,
    )


def comments(entry: Entry) -> list[str]:
    """The extracted comments that mark an entry: the browser pages that use it, a refusal."""
    out = [f"browser: {page}" for page in entry.pages]
    if entry.context == REFUSAL:
        out.append(REFUSAL_NOTE)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", required=True, help="the git revision of the old catalogues")
    parser.add_argument("--merge", action="store_true", help="add to the .po files, keep theirs")
    args = parser.parse_args()
    entries = old_entries(args.rev)
    for lang in LANGS:
        path = LOCALE / lang / "LC_MESSAGES" / "gammon.po"
        if args.merge:
            with path.open("rb") as f:
                cat = read_po(f, locale=lang)
        else:
            cat = catalog(lang)
        for entry in entries:
            text = entry.text.get(lang, "")
            have = cat.get(entry.key, entry.context)
            if have is None:
                if args.merge:
                    print(f"added {lang} {entry.key!r}: {text!r}")
                cat.add(entry.key, text, auto_comments=comments(entry), context=entry.context)
            elif have.string != text:
                print(f"differs {lang} {entry.key!r}: .po {have.string!r}, old {text!r} (kept)")
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            write_po(f, cat, width=0, no_location=True, omit_header=False)
        print(f"{path.relative_to(ROOT)}: {len(cat)} messages")


if __name__ == "__main__":
    main()
