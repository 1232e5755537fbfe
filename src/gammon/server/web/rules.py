"""The rules pages (issue #18): ``/rules`` (backgammon, the table options and every variant)
and ``/rules/{variant}`` (one variant with its starting position drawn), in the visitor's
language, from :mod:`gammon.server.rulestext`."""

from __future__ import annotations

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response

from gammon import VARIANTS, Position
from gammon.server.protocol import ServerError
from gammon.server.rulestext import BASICS, OPTION_HELP, rules_text
from gammon.server.web.common import lang_of, render_page
from gammon.variants import ROTATIONS, rotation

__all__ = ["rules_page", "variant_rules_page"]


def _diagram(variant: str) -> Markup:
    """The variant's starting position as an SVG (drawn by gammon itself: safe markup); a
    rotation's first game for a rotation (tavli)."""
    return Markup(Position.initial(rotation(variant)[0]).svg(size=360))


async def rules_page(request: Request) -> Response:
    lang = lang_of(request)
    return await render_page(
        request,
        "rules.html",
        {
            "basics": BASICS[lang],
            "options": OPTION_HELP[lang],
            "variants": [(v, rules_text(lang, v)) for v in (*VARIANTS, *ROTATIONS)],
            "diagram": _diagram("standard"),
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
            "diagram": _diagram(name),
            "variant": name,
        },
    )
