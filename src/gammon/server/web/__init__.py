"""HTTP routes: the server-rendered pages and the JSON API (docs/protocol.md, "HTTP").

Every state-changing request is CSRF-checked: forms carry ``csrf_token``, JSON
requests the ``X-CSRF-Token`` header (and must be ``application/json``); a
foreign ``Origin`` is refused as well.

- :mod:`~gammon.server.web.common`: sessions, CSRF, forms, language, rendering;
- :mod:`~gammon.server.web.pages`: the lobby, accounts and table pages and forms;
- :mod:`~gammon.server.web.pairing`: play now, the quick-pairing pools;
- :mod:`~gammon.server.web.rematch`: rematches;
- :mod:`~gammon.server.web.matches`: a match's record, log and ``.mat``;
- :mod:`~gammon.server.web.analysis`: the analysis board, the analysis and its progress;
- :mod:`~gammon.server.web.deep`: the grandmaster analysis and rollouts on demand;
- :mod:`~gammon.server.web.position`: any position (``/analysis``), its analysis, rollout
  and picture, and a match's SGF and ``.xg``;
- :mod:`~gammon.server.web.imports`: a match file uploaded by a player, and its analysis;
- :mod:`~gammon.server.web.players`: profiles, leaderboards, the account's history;
- :mod:`~gammon.server.web.training`: puzzles from analysed errors (``/training``);
- :mod:`~gammon.server.web.rules`: the rules pages;
- :mod:`~gammon.server.web.api`: the JSON API;
- :mod:`~gammon.server.web.challenges`: challenges (pages, forms and JSON);
- :mod:`~gammon.server.web.tournaments`: tournaments (pages, forms and JSON);
- :mod:`~gammon.server.web.texts`: the browser's texts (``/i18n/<lang>.json``);
- :mod:`~gammon.server.web.ops`: ``/metrics`` and ``/readyz``, for operators;
- :mod:`~gammon.server.web.errors`: error responses.
"""

from __future__ import annotations

from starlette.routing import Route

from gammon.server.web.analysis import (
    analysis_page,
    api_analysis,
    api_analysis_progress,
    api_replay,
)
from gammon.server.web.api import (
    api_create_table,
    api_guest,
    api_leave,
    api_ledger,
    api_protocol,
    api_session,
    api_sit,
    api_table,
    api_tables,
)
from gammon.server.web.challenges import (
    api_challenge_answer,
    api_challenges,
    api_create_challenge,
    challenge_answer,
    challenge_settings,
    challenges_page,
    create_challenge,
)
from gammon.server.web.deep import deep_routes
from gammon.server.web.errors import exception_handlers
from gammon.server.web.imports import import_routes
from gammon.server.web.inbox import inbox_routes
from gammon.server.web.matches import (
    match_log,
    match_mat,
    match_page,
    match_record,
)
from gammon.server.web.moderation import moderation_routes
from gammon.server.web.ops import ops_routes
from gammon.server.web.pages import (
    account,
    create_table,
    healthz,
    leave,
    lobby_lists,
    lobby_page,
    signin,
    signin_page,
    signout,
    signup,
    signup_page,
    sit,
    table_page,
    verify_page,
    watch,
)
from gammon.server.web.pairing import pairing_routes
from gammon.server.web.players import player_routes
from gammon.server.web.position import position_routes
from gammon.server.web.rematch import api_decline_rematch, api_rematch, rematch, rematch_id
from gammon.server.web.rules import rules_page, variant_rules_page
from gammon.server.web.texts import text_routes
from gammon.server.web.tournaments import (
    api_tournament,
    create_tournament,
    tournament_bot,
    tournament_live,
    tournament_page,
    tournament_register,
    tournament_unregister,
    tournaments_page,
)
from gammon.server.web.training import training_routes

__all__ = ["exception_handlers", "match_record", "rematch_id", "routes"]


def routes() -> list[Route]:
    """Every HTTP route."""
    return [
        Route("/", lobby_page, methods=["GET"]),
        Route("/watch", watch, methods=["GET"]),
        Route("/rules", rules_page, methods=["GET"]),
        Route("/rules/{variant}", variant_rules_page, methods=["GET"]),
        Route("/lobby/tables", lobby_lists, methods=["GET"]),
        Route("/signup", signup_page, methods=["GET"]),
        Route("/signup", signup, methods=["POST"]),
        Route("/signin", signin_page, methods=["GET"]),
        Route("/signin", signin, methods=["POST"]),
        Route("/signout", signout, methods=["POST"]),
        Route("/account", account, methods=["GET"]),
        Route("/tables", create_table, methods=["POST"]),
        Route("/tables/{table_id}/sit", sit, methods=["POST"]),
        Route("/tables/{table_id}/leave", leave, methods=["POST"]),
        Route("/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/table/{table_id}", table_page, methods=["GET"]),
        Route("/matches/{table_id}", match_page, methods=["GET"]),
        Route("/matches/{table_id}/log", match_log, methods=["GET"]),
        Route("/matches/{table_id}/mat", match_mat, methods=["GET"]),
        Route("/matches/{table_id}/verify", verify_page, methods=["GET"]),
        Route("/matches/{table_id}/analysis", analysis_page, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        *ops_routes(),
        *text_routes(),
        Route("/api/protocol", api_protocol, methods=["GET"]),
        Route("/api/session", api_session, methods=["GET"]),
        Route("/api/guest", api_guest, methods=["POST"]),
        Route("/api/me/ledger", api_ledger, methods=["GET"]),
        Route("/api/tables", api_tables, methods=["GET"]),
        Route("/api/tables", api_create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", api_table, methods=["GET"]),
        Route("/api/tables/{table_id}/sit", api_sit, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", api_leave, methods=["POST"]),
        Route("/api/tables/{table_id}/replay", api_replay, methods=["GET"]),
        Route("/api/tables/{table_id}/analysis", api_analysis, methods=["GET"]),
        Route("/api/tables/{table_id}/analysis/progress", api_analysis_progress, methods=["GET"]),
        Route("/api/tables/{table_id}/rematch", api_rematch, methods=["GET"]),
        Route("/api/tables/{table_id}/rematch/decline", api_decline_rematch, methods=["POST"]),
        *import_routes(),
        *deep_routes(),
        *inbox_routes(),
        *position_routes(),
        *pairing_routes(),
        *player_routes(),
        *training_routes(),
        *moderation_routes(),
        Route("/challenges", challenges_page, methods=["GET"]),
        Route("/challenges", create_challenge, methods=["POST"]),
        Route("/challenges/{challenge_id}/{what}", challenge_answer, methods=["POST"]),
        Route("/account/challenges", challenge_settings, methods=["POST"]),
        Route("/api/challenges", api_challenges, methods=["GET"]),
        Route("/api/challenges", api_create_challenge, methods=["POST"]),
        Route("/api/challenges/{challenge_id}/{what}", api_challenge_answer, methods=["POST"]),
        Route("/tournaments", tournaments_page, methods=["GET"]),
        Route("/tournaments", create_tournament, methods=["POST"]),
        Route("/tournaments/{tournament_id}", tournament_page, methods=["GET"]),
        Route("/tournaments/{tournament_id}/live", tournament_live, methods=["GET"]),
        Route("/tournaments/{tournament_id}/register", tournament_register, methods=["POST"]),
        Route("/tournaments/{tournament_id}/unregister", tournament_unregister, methods=["POST"]),
        Route("/tournaments/{tournament_id}/bots", tournament_bot, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}", api_tournament, methods=["GET"]),
    ]
