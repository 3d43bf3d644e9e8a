"""Each ruleset's actions as commands (``/ssg shoot``), read from its engine's action specs: the
actions of a turn (:data:`~rules.specs.Role.PLAY`) and the one that ends it (``PASS``); answers go
through /decide and placing through /map. A ruleset whose engine declares no specs yet has none
here (its Discord cog still describes it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.app.commands.declared import Command
from bot.app.replies import Caller, Reply
from bot.app.service import App
from rules import RULESETS, get_engine
from rules.specs import Kind, Params, Role, option

#: What each ruleset's group is, in a sentence (the group's description on Discord and in /help),
#: where its engine does not say (``command_blurb``).
GROUP_SENTENCES: Mapping[str, str] = {
    "ssg": "Simple Skirmish Game: your turn's actions",
    "sharpe": "Sharpe's Skirmish: your character's turn",
    "nsr": "Napoleonic Skirmish Rules: orders for your units",
    "medieval": "Medieval skirmish: knights, men at arms and Vikings",
    "yasg": "Yet Another Skirmish Game: the board and your turn",
}
#: The roles a command is offered for: the rest are taken through /decide and /map.
OFFERED = (Role.PLAY, Role.PASS)


def has_specs(slug: str) -> bool:
    return bool(get_engine(slug).specs)


def group_sentence(slug: str) -> str:
    """The ruleset's group in a sentence: its engine's own, else the one kept here, else its title."""
    blurb = getattr(get_engine(slug), "command_blurb", None)
    return str(blurb or GROUP_SENTENCES.get(slug) or RULESETS[slug][1])


def ruleset_commands(slug: str) -> tuple[Command, ...]:
    """``/<slug> <action>`` for each action of a turn the ruleset's specs declare, in their order."""
    engine = get_engine(slug)
    actions = tuple(
        Command(
            (slug, spec.name),
            spec.sentence,
            spec.params,
            lock=True,
            picture=True,
            follows=True,
            ruleset=slug,
            role=spec.role,
        )
        for spec in engine.specs.values()
        if spec.role in OFFERED
    )
    questions = tuple(q for q in QUESTIONS.get(slug, ()) if q.path[-1] not in engine.specs)
    return actions + questions


@dataclass(frozen=True, kw_only=True)
class TargetsOptions(Params):
    shooter: str = option("A man, or a gun", Kind.FIGURE, required=True)
    weapon: str | None = option("Default: the firearm in his hand", length=32)


async def _sharpe_targets(app: App, caller: Caller, p: TargetsOptions) -> Reply:
    return await app.targets.sharpe_targets(caller, p.shooter, p.weapon)


#: A ruleset's questions: commands in its group that ask the application and change nothing (until
#: its engine declares the question as a spec of its own).
QUESTIONS: Mapping[str, tuple[Command, ...]] = {
    "sharpe": (
        Command(
            ("sharpe", "targets"),
            "Map: whom he should shoot first (only you see it)",
            TargetsOptions,
            _sharpe_targets,
        ),
    ),
}


def all_ruleset_commands() -> tuple[Command, ...]:
    """The commands of every ruleset whose engine declares its specs."""
    return tuple(c for slug in RULESETS if has_specs(slug) for c in ruleset_commands(slug))
