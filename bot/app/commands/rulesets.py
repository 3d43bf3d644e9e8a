"""Each ruleset's actions as commands (``/ssg shoot``), read from its engine's action specs: the
actions of a turn (:data:`~rules.specs.Role.PLAY`) and the one that ends it (``PASS``); answers go
through /decide and placing through /map. A ruleset whose engine declares no specs yet has none
here (its Discord cog still describes it)."""

from __future__ import annotations

from bot.app.commands.declared import Command
from rules import RULESETS, get_engine
from rules.specs import Role

#: The roles a command is offered for: the rest are taken through /decide and /map.
OFFERED = (Role.PLAY, Role.PASS)


def group_sentence(slug: str) -> str:
    """The ruleset's group in a sentence: its engine's own, else its title."""
    return get_engine(slug).command_blurb or RULESETS[slug][1]


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
    return actions


def all_ruleset_commands() -> tuple[Command, ...]:
    """The commands of every ruleset, from its specs."""
    return tuple(c for slug in RULESETS for c in ruleset_commands(slug))
