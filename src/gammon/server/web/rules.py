"""The rules pages (issue #18): ``/rules`` (backgammon, the table options and every variant)
and ``/rules/{variant}`` (one variant with its starting position drawn), in the visitor's
language, from :mod:`gammon.server.web.rulestext`."""

from __future__ import annotations

import re

from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import Response

from gammon import VARIANTS, Position
from gammon.server.i18n import translator
from gammon.server.protocol import ServerError
from gammon.server.web.common import lang_of, render_page
from gammon.server.web.rulestext import BASICS, OPTION_HELP, rules_text
from gammon.variants import ROTATIONS, rotation

__all__ = ["rules_page", "variant_rules_page"]


#: The label gammon's SVG gives itself (in English).
_LABEL = re.compile(r'aria-label="[^"]*"')


def _diagram(variant: str, lang: str) -> Markup:
    """The variant's starting position as an SVG (drawn by gammon itself: safe markup); a
    rotation's first game for a rotation (tavli).  Its screen-reader label is in the page's
    language (issue #33), not the library's English."""
    t = translator(lang)
    label = f"{t('The starting position')}: {t('variant.' + variant)}"
    drawn = Position.initial(rotation(variant)[0]).svg(size=360)
    return Markup(_LABEL.sub(f'aria-label="{escape(label)}"', drawn, count=1))


async def rules_page(request: Request) -> Response:
    lang = lang_of(request)
    return await render_page(
        request,
        "rules.html",
        {
            "basics": BASICS[lang],
            "options": OPTION_HELP[lang],
            "variants": [(v, rules_text(lang, v)) for v in (*VARIANTS, *ROTATIONS)],
            "diagram": _diagram("standard", lang),
            "variant": None,
        },
    )


async def variant_rules_page(request: Request) -> Response:
    name = request.path_params["variant"]
    if name not in VARIANTS and name not in ROTATIONS:
        raise ServerError("not_found", f"no variant {name!r}")
    lang = lang_of(request)
    return await render_page(
        request,
        "rules.html",
        {
            "basics": BASICS[lang],
            "options": OPTION_HELP[lang] if all(v.cube for v in rotation(name)) else {},
            "variants": [(name, rules_text(lang, name))],
            "diagram": _diagram(name, lang),
            "variant": name,
        },
    )
