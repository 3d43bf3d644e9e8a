"""Thin Discord cogs: parse the interaction, call the application layer, deliver its reply.

``extensions()`` lists every cog module the bot loads: the shared ones, then ``cogs.<slug>`` for
each ruleset that has a cog. The terminal walks the same command tree.
"""

from __future__ import annotations

import importlib.util

SHARED = ("cogs.campaign", "cogs.roster", "cogs.game", "cogs.decisions", "cogs.roll", "cogs.odds", "cogs.admin")


def extensions() -> tuple[str, ...]:
    from rules import RULESETS

    rulesets = tuple(f"cogs.{slug}" for slug in RULESETS if importlib.util.find_spec(f"cogs.{slug}") is not None)
    return SHARED + rulesets
