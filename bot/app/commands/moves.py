"""The next move, from the declared commands: the ruleset's quick moves (its pass action, offered
only when the engine would carry it out now) and the other commands the phase allows, to type."""

from __future__ import annotations

from collections.abc import Mapping

from bot.app.commands.declared import Command
from bot.app.replies import MovesNow
from rules import RULESETS, get_engine
from rules.specs import Role

MAX_QUICK = 4


def quick_moves(commands: Mapping[str, Command], slug: str, now: MovesNow | None) -> list[Command]:
    """The ruleset's pass actions the engine would carry out now, typed with no options (none when
    nobody is to move)."""
    if now is None:
        return []
    passes = [c for c in commands.values() if c.group == slug and c.role is Role.PASS]
    return [c for c in passes if now.accepts(c.path[-1])][:MAX_QUICK]


def map_actions(slug: str) -> set[str]:
    """The ruleset's actions taken through /map (placing before the battle): none for a ruleset
    with a board of its own (YASG places with /yasg place)."""
    return (
        {name for name, spec in get_engine(slug).specs.items() if spec.role is Role.MAP} if slug in RULESETS else set()
    )


def to_type(commands: Mapping[str, Command], slug: str, now: MovesNow | None) -> str:
    """The other commands the phase allows, as a line to read: "Or type /ssg move (/help topic:ssg)":
    the ruleset's that need options, and /map's for placing figures while the sides deploy; when
    none does, every one the phase allows (an SSG melee's /ssg melee)."""
    if now is None:
        return ""
    placing = map_actions(slug)
    allowed = [
        c
        for c in commands.values()
        if (c.group == slug or (c.group == "map" and c.path[-1] in placing))
        and len(c.path) == 2
        and c.path[-1] in now.allowed
        and c.role is not Role.PASS
    ]
    needing = [c for c in allowed if c.group != slug or any(o.required for o in c.options)]
    named = list(dict.fromkeys(f"/{c.name}" for c in needing or allowed))
    return f"Or type {', '.join(named)} (/help topic:{slug})." if named else ""
