"""Issue #33: every control of the lobby's create-table form is explained: a hint tied to it
with ``aria-describedby`` (or a "?" beside it naming its rule), in the page's language."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from gammon.server.web.rulestext import FIELD_HELP
from serverkit import Player


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_every_lobby_control_is_explained(players: Callable[[], Player], lang: str) -> None:
    page = players().http.get(f"/?lang={lang}").text
    form = page[page.index('id="create-table"') :]
    form = form[: form.index("</form>")]
    helps = dict(re.findall(r'<small class="field-help" id="([^"]+)">([^<]+)</small>', form))
    controls = re.findall(r"<(?:input|select)\b[^>]*>", form)
    named = [c for c in controls if 'type="hidden"' not in c]
    assert len(named) >= 24
    unexplained = []
    for control in named:
        name = re.search(r'name="([^"]+)"', control)
        assert name
        described = re.search(r'aria-describedby="([^"]+)"', control)
        if described and described.group(1) in helps:
            continue
        if described and f'id="{described.group(1)}"' in form:
            continue  # the rated and visitors' chat hints (sr-only)
        # a "?" beside it, labelled with its rule
        label = form[form.index(control) :]
        label = label[: label.index("</label>")]
        if 'class="opt-help"' not in label:
            unexplained.append(name.group(1))
    assert not unexplained, unexplained
    for key, text in FIELD_HELP[lang].items():
        assert helps[f"help-{key}"] == text.replace("'", "&#39;"), key
