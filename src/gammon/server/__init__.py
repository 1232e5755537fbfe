"""The gammon web site: HTTP pages, a JSON API and a WebSocket protocol for play.

``create_app(settings)`` builds the ASGI application; ``gammon serve`` runs it.
The protocol is documented in docs/protocol.md (version ``PROTOCOL_VERSION``).
Needs the ``server`` extra; :mod:`gammon.server.infra.settings` alone does not, so the
CLI can describe every setting without importing the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gammon.server.app import create_app
    from gammon.server.infra.settings import Settings
    from gammon.server.protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from gammon.server.app import create_app

        return create_app
    if name == "PROTOCOL_VERSION":
        from gammon.server.protocol import PROTOCOL_VERSION

        return PROTOCOL_VERSION
    if name == "Settings":
        from gammon.server.infra.settings import Settings

        return Settings
    raise AttributeError(f"module 'gammon.server' has no attribute {name!r}")
