"""Issue #33 (H22): every page checked with axe-core at desktop and phone size, light and dark.

Each page is loaded once per size and checked in both schemes: light, then the browser's
``prefers-color-scheme`` switched to dark (``page.emulate_media``), which the page follows
at once (theme.js sets ``data-theme``; the style sheets have no transitions).

axe-core comes from npm (``node_modules/axe-core``, a dev dependency installed by ``npm ci``)
and is injected by Playwright (the site's Content-Security-Policy bypassed for it).  One account
(a moderator) sees every page: the lobby, a table in play and the same table at its end, watch,
the analysis board of a finished 7-point match and of a tavli match, the /analysis position
page, the import form and an imported match, the match and verify pages, a profile, the
leaderboard, the account, sign in and sign up, the rules in English, French and Italian,
challenges, tournaments and a tournament, the inbox, training and the moderators' pages.  No
serious or critical violation is allowed; every page's figures (violations by impact) are
printed, then a total per size and scheme::

    .venv/bin/pytest -q -s -p no:randomly -n 0 tests/e2e/test_axe_pages.py
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.kit import (
    CI,
    Browse,
    GammonServer,
    Traffic,
    axe_loaded,
    axe_with_every_page,
    create_table,
    next_action,
    resign_the_match,
    shot,
    sign_up,
)
from gammon.cli import main
from matchseed import recorded, seed_finished_match

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: The impacts that fail the test.
SERIOUS = ("serious", "critical")
M7 = "axeMatchM7xx"
TAVLI = "axeMatchTavl"
TINY = Path(__file__).parents[1] / "data" / "tiny.mat"
#: What the first run made (the account's cookies, the tournament, the import), by server.
PREPARED: dict[str, dict[str, Any]] = {}
#: The figures of every run: (size, scheme) -> page -> impact -> count.
FIGURES: dict[tuple[str, str], dict[str, Counter[str]]] = {}


@pytest.fixture(scope="module")
def site(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[GammonServer]:
    """A server whose database holds a finished 7-point match and a finished tavli match."""
    db = tmp_path_factory.mktemp("axe") / "gammon.db"
    seed_finished_match(f"sqlite:///{db}", M7, recorded("standard-7"))
    seed_finished_match(f"sqlite:///{db}", TAVLI, recorded("tavli-3"))
    srv = GammonServer(db)
    srv.start()
    yield srv
    srv.stop()


def axe(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations of the page as it is."""
    axe_loaded(page)
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
        const r = await window.axe.run(document, {resultTypes: ['violations']});
        return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
          count: v.nodes.length, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}));
    }"""
    )
    return found


def _prepare(site: GammonServer, browse: Browse) -> dict[str, Any]:
    """Once per server: a moderator's account, a tournament, an imported match."""
    if site.url in PREPARED:
        return PREPARED[site.url]
    page = browse.page(site.url, "desktop", "setup")
    name = sign_up(page)
    assert main(["admin", "--db", f"sqlite:///{site.db}", "grant", name]) == 0
    page.goto("/tournaments")
    form = page.locator("#create-tournament")
    form.locator("[name=name]").fill("Axe cup")
    form.locator("[name=match_length]").fill("1")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    found = re.search(r"/tournaments/(\d+)$", page.url)
    assert found, page.url
    page.goto("/import")
    page.set_input_files("input[name=file]", str(TINY))
    with page.expect_navigation():
        page.locator("form[enctype='multipart/form-data'] button[type=submit]").click()
    imported = re.search(r"/imports/[\w-]+$", page.url)
    assert imported, page.url
    PREPARED[site.url] = {
        "name": name,
        "tournament": found.group(1),
        "import": imported.group(0),
        "state": page.context.storage_state(),
    }
    return PREPARED[site.url]


#: The colour schemes every page is checked in, in this order on each load.
SCHEMES = ("light", "dark")


def in_scheme(page: Any, scheme: str) -> None:
    """Switch the browser's ``prefers-color-scheme`` and wait until the page follows it."""
    page.emulate_media(color_scheme=scheme)
    page.wait_for_function(f"() => document.documentElement.dataset.theme === '{scheme}'")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_serious_accessibility_violation_on_any_page(
    site: GammonServer, browse: Browse, expect: Callable[..., Any], size: str
) -> None:
    if not AXE.exists():
        if CI:
            pytest.fail("node_modules/axe-core is missing: run npm ci")
        pytest.skip("node_modules/axe-core is missing (npm ci)")
    ready = _prepare(site, browse)
    figures: dict[str, dict[str, Counter[str]]] = {scheme: {} for scheme in SCHEMES}
    bad: dict[str, list[str]] = {}

    def check(label: str) -> None:
        for scheme in SCHEMES:
            in_scheme(page, scheme)
            found = axe(page)
            counts = figures[scheme][label] = Counter(str(v["impact"]) for v in found)
            serious = [
                f"{v['impact']} {v['id']} ×{v['count']}: {v['help']} {v['nodes']}"
                for v in found
                if v["impact"] in SERIOUS
            ]
            if serious:
                bad[f"{label} ({scheme})"] = serious
            print(f"axe {size} {scheme} {label}: {dict(counts) or 'none'}", *serious, sep="\n    ")
            shot(page, f"axe-{label.replace(' ', '-')}-{size}-{scheme}")

    # signed out first (a new browser), then as the moderator
    page = browse.page(site.url, size, "guest", bypass_csp=True, color_scheme=SCHEMES[0])
    axe_with_every_page(page)
    for label, path in (("sign up", "/signup"), ("sign in", "/signin")):
        page.goto(path)
        check(label)
    page = browse.page(
        site.url,
        size,
        "mod",
        bypass_csp=True,
        color_scheme=SCHEMES[0],
        storage_state=ready["state"],
    )
    axe_with_every_page(page)
    traffic = Traffic(page)
    pages = (
        ("lobby", "/"),
        ("account", "/account"),
        ("watch", "/watch"),
        ("match", f"/matches/{M7}"),
        ("verify", f"/matches/{M7}/verify"),
        ("analysis board", f"/matches/{M7}/analysis"),
        ("analysis board (tavli)", f"/matches/{TAVLI}/analysis"),
        ("position page", "/analysis"),
        ("import", "/import"),
        ("imported", ready["import"]),
        ("profile", f"/@/{ready['name']}"),
        ("leaderboard", "/leaderboard"),
        ("rules", "/rules?lang=en"),
        ("rules of plakoto", "/rules/plakoto?lang=en"),
        ("rules (fr)", "/rules?lang=fr"),
        ("rules of tavli (fr)", "/rules/tavli?lang=fr"),
        ("rules (it)", "/rules?lang=it"),
        ("rules of fevga (it)", "/rules/fevga?lang=it"),
        ("challenges", "/challenges?lang=en"),
        ("tournaments", "/tournaments"),
        ("tournament", f"/tournaments/{ready['tournament']}"),
        ("inbox", "/inbox"),
        ("training", "/training"),
        ("mod queue", "/mod"),
        ("mod log", "/mod/log"),
        ("mod flags", "/mod/flags"),
        ("mod user", f"/mod/users/{ready['name']}"),
    )
    for label, path in pages:
        page.goto(path)
        traffic.idle()  # the page's own requests answered (its lists, its replay...)
        if label.startswith("analysis board") or label == "imported":
            expect(page.locator("#analysis-board")).to_have_attribute(
                "data-analysed", "true", timeout=180_000
            )
            # a move of the first player: its candidates, the played one marked (the row
            # whose dark-mode contrast was 1.08:1)
            page.locator(".ab-moves button.k-move").first.click()
            expect(page.locator(".cands tr.played").first).to_be_visible()
        check(label)
    create_table(page, opponent="bot", bot_level="beginner", match_length=1)
    next_action(page)
    check("table (playing)")
    resign_the_match(page)
    expect(page.locator("[data-testid=over]")).to_be_visible()
    check("table (over)")

    for scheme in SCHEMES:
        FIGURES[(size, scheme)] = figures[scheme]
        print(f"\naxe-core at {size}, {scheme}: page: violations by impact")
        for label, counts in figures[scheme].items():
            print(f"  {label}: {dict(counts) or 'none'}")
        total: Counter[str] = Counter()
        for counts in figures[scheme].values():
            total.update(counts)
        print(f"  {len(figures[scheme])} pages, total: {dict(total) or 'none'}")
    for label, lines in bad.items():
        print(f"  SERIOUS {label}:", *lines, sep="\n    ")
    assert not bad, bad


#: Every tap target of the lobby (a checkbox's is its label), with its size in CSS px.
TARGETS_JS = """() => [...document.querySelectorAll(
    '.lobby-head :is(a, button, select, input), .lobby-columns :is(a, button, select, input)'
  )].filter((e) => e.type !== 'hidden' && e.offsetParent !== null).map((e) => {
    const box = (e.type === 'checkbox' ? e.closest('label') || e : e).getBoundingClientRect();
    return {what: e.outerHTML.slice(0, 80), w: box.width, h: box.height};
  })"""


def test_the_lobby_tap_targets_are_40_px_on_a_phone(
    site: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    """Issue #33: on a phone (390 x 844) every lobby control is 40 px high at least."""
    page = browse.page(site.url, "phone", "phone")
    sign_up(page)
    page.goto("/")
    expect(page.locator("#create-table")).to_be_attached()
    targets = page.evaluate(TARGETS_JS)
    small = [t for t in targets if t["h"] < 40 or t["w"] < 24]
    print(f"\nlobby tap targets on a phone: {len(targets)}, under 40 px: {len(small)}")
    assert len(targets) >= 24 and not small, small
