"""Every command of Skirmish GM in one table, by qualified name, in the order /help lists them:
the shared groups, then each ruleset's actions from its specs (and any a front-end adds for a
ruleset whose engine declares no specs yet)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from bot.app.commands import campaign, game, map, play, roster
from bot.app.commands.declared import Command, table_of
from bot.app.commands.help import help_reply, topics
from bot.app.commands.rulesets import all_ruleset_commands, group_sentence
from bot.app.replies import Caller, Reply
from rules import RULESETS
from rules.specs import Params, option

#: Each shared group's sentence (a group's description on Discord, its line in /help's contents).
SHARED_GROUPS: Mapping[str, str] = {
    "campaign": campaign.GROUP,
    "roster": roster.GROUP,
    "game": game.GROUP,
    "map": map.GROUP,
}


#: Each subgroup's sentence, by its path (``/campaign rules``).
SUBGROUPS: Mapping[tuple[str, str], str] = {
    **{("campaign", name): sentence for name, sentence in campaign.SUBGROUPS.items()},
    **{("map", name): sentence for name, sentence in map.SUBGROUPS.items()},
}


def groups() -> dict[str, str]:
    """Every group's sentence: the shared groups', then each ruleset's."""
    return {**SHARED_GROUPS, **{slug: group_sentence(slug) for slug in RULESETS}}


@dataclass(frozen=True, kw_only=True)
class HelpOptions(Params):
    topic: str | None = option(
        "A ruleset (ssg), a group (campaign) or a command (ssg shoot); empty: the contents", length=60
    )


@functools.cache
def command_table() -> Mapping[str, Command]:
    """The table: shared commands, then the rulesets' from their specs; /odds reads its action
    against it and /help describes it. Built once: the commands are the same for every campaign."""
    table = table_of(
        campaign.COMMANDS, roster.COMMANDS, game.COMMANDS, map.COMMANDS, play.COMMANDS, all_ruleset_commands()
    )

    async def show_help(app: Any, caller: Caller, p: HelpOptions) -> Reply:
        return help_reply(table, groups(), p.topic)

    async def complete_topic(app: Any, caller: Caller, typed: str) -> list[tuple[str, str]]:
        wanted = typed.casefold().lstrip("/")
        return [(f"/{topic}", topic) for topic in topics(table) if wanted in topic][:25]

    table["odds"] = play.odds_command(table)
    table["help"] = Command(
        ("help",),
        "The rulesets and commands: a ruleset's turn, one command's options",
        HelpOptions,
        show_help,
        completes={"topic": complete_topic},
    )
    return MappingProxyType(table)
