"""Issue #18, items 2 and 6: the rules pages (en/fr/it, with the starting position drawn),
linked from the lobby, the table and the match page; a sentence beside each table option;
the lobby's one-click "Play the bot"; the create-table options above the fold at 1280×800."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import Browse, GammonServer, sign_up, wait_synced

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("lang", "title", "variant_word"),
    [
        ("en", "The rules of backgammon", "Variants"),
        ("fr", "Les règles du backgammon", "Variantes"),
        ("it", "Le regole del backgammon", "Varianti"),
    ],
)
def test_the_rules_pages(
    server: GammonServer,
    browse: Browse,
    expect: Callable[..., Any],
    lang: str,
    title: str,
    variant_word: str,
) -> None:
    page = browse.page(server.url, "desktop", "visitor")
    page.goto(f"/rules?lang={lang}")
    expect(page.locator("h1")).to_have_text(title)
    expect(page.locator("[data-testid=rules-board] svg")).to_have_count(1)
    assert page.locator("[data-testid=rules-basics] li").count() >= 5
    assert page.locator("[data-testid=rules-options] dt").count() == 10
    expect(page.locator("#variants h2")).to_have_text(variant_word)
    links = page.locator("[data-testid=rules-variants] a")
    assert links.count() == 12  # 11 variants and the tavli rotation
    page.locator("#variant-plakoto a").click()
    page.wait_for_url("**/rules/plakoto")
    expect(page.locator("[data-testid=rules-variants] dd")).to_have_count(1)
    expect(page.locator("[data-testid=rules-board] svg")).to_have_count(1)
    # no cube in plakoto: no cube options explained there
    expect(page.locator("[data-testid=rules-options]")).to_have_count(0)
    assert page.request.get("/rules/nothing").status == 404


def test_play_the_bot_in_one_click_and_the_rules_links(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "alice")
    sign_up(page)
    page.goto("/")
    # every option explained beside it; the first screen (1280×800) is Play now, whole
    helps = page.locator("#create-table .opt-help[title]")
    assert helps.count() == 11  # the nine table options, rated and "visitors may chat"
    assert all(helps.nth(i).get_attribute("title") for i in range(helps.count()))
    pools = page.locator("[data-testid=play-now]").bounding_box()
    assert pools is not None and pools["y"] + pools["height"] <= 800, pools
    expect(page.locator("[data-testid=variant-rules]")).to_have_attribute("href", "/rules#variants")
    quick = page.locator("[data-testid=play-bot]")
    quick.locator("select[name=bot_level]").select_option("expert")
    with page.expect_navigation():
        quick.locator("button[type=submit]").click()
    wait_synced(page)
    expect(page.locator("[data-testid=player-top] .name")).to_contain_text("gammon-bot")
    assert page.evaluate("() => window.gammonPage.state.table.options.match_length") == 3
    rules = page.locator("[data-testid=info] [data-link=rules]")
    expect(rules).to_have_attribute("href", "/rules/standard")
    table = page.url.rsplit("/", 1)[1]
    page.goto(f"/matches/{table}")
    expect(page.locator("[data-link=rules]")).to_have_attribute("href", "/rules/standard")
