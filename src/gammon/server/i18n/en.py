"""English: the names and codes the pages show by a symbolic key (the other page texts
are their own English)."""

from __future__ import annotations

from typing import Final

__all__ = ["ENGLISH"]

#: The English of the symbolic keys (``variant.standard``, ``level.expert``, ``how.drop``...):
#: names and codes the pages show, which every language must name (a test checks it).
ENGLISH: Final[dict[str, str]] = {
    "option.end_setting": "End setting (Oin, Mars, Cox)",
    "option.cube_limit": "Cube limit",
    "option.crawford": "Crawford rule",
    "option.jacoby": "Jacoby rule",
    "option.beaver": "Beavers",
    "option.raccoon": "Raccoons",
    "option.automatic_doubles": "Automatic doubles",
    "option.first_move": "First move in a series",
    "option.draw_last_roll": "Draw with the last roll",
    "option.spectator_chat": "Visitors may chat",
    "variant.standard": "standard",
    "variant.nackgammon": "nackgammon",
    "variant.hypergammon": "hypergammon",
    "variant.caucasian": "Caucasian",
    "variant.tavla": "tavla (Turkish)",
    "variant.portes": "portes (Greek)",
    "variant.plakoto": "plakoto (Greek)",
    "variant.fevga": "fevga (Greek)",
    "variant.long-nardy": "long nardy (Russian)",
    "variant.jacquet": "jacquet (French)",
    "variant.acey-deucey": "acey-deucey (American)",
    "variant.tavli": "tavli (Greek: portes, plakoto, fevga)",
    "level.beginner": "beginner",
    "level.intermediate": "intermediate",
    "level.expert": "expert",
    "level.world-class": "world-class",
    "level.grandmaster": "grandmaster",
    "end.oin": "Oin (single games only)",
    "end.mars": "Mars (up to gammons)",
    "first.loser": "the loser starts",
    "first.alternate": "players start in turn",
    "first.winner": "the winner starts",
    "status.waiting": "waiting",
    "status.playing": "playing",
    "status.finished": "finished",
    "reason.closed": "closed",
    "reason.left": "a player left",
    "reason.match_over": "match over",
    "reason.timeout": "time out",
    "reason.idle": "a player stopped playing",
    "reason.balance": "a balance ran out",
    "how.bear_off": "borne off",
    "how.drop": "drop",
    "how.resign": "resignation",
    "how.abandon": "abandoned",
    "how.timeout": "time out",
    "how.draw": "draw",
    "how.mother": "mother pinned",
    "mark.none": "fine",
    "mark.doubtful": "doubtful",
    "mark.error": "error",
    "mark.blunder": "blunder",
}
