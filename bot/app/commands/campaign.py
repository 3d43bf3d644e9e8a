"""/campaign: create, join, show and end the campaign that runs in a channel; its files and house rules."""

from __future__ import annotations

from dataclasses import dataclass

from bot.app.commands.declared import Command, Upload
from bot.app.replies import Caller, Reply
from bot.app.service import App
from rules import RULESETS
from rules.specs import Kind, NoParams, Params, option

GROUP = "The campaign in this channel"
#: The subgroups' sentences (a subgroup's description on Discord).
SUBGROUPS = {"rules": "The campaign's house rules"}
BATTLEFIELDS = ("map", "table")
FILE_HELP = "A YAML file (from an export, or written by hand)"


@dataclass(frozen=True, kw_only=True)
class NewOptions(Params):
    name: str = option("The campaign's name", required=True, length=100, example='"Iron Coast"')
    ruleset: str = option(
        "The rules it is played by",
        Kind.CHOICE,
        required=True,
        choices=tuple(RULESETS),
        labels=tuple(title for _, title in RULESETS.values()),
    )
    battlefield: str | None = option(
        "map: the bot keeps the table and measures (default where it can); table: your own", choices=BATTLEFIELDS
    )


@dataclass(frozen=True, kw_only=True)
class BattlefieldOptions(Params):
    mode: str = option(
        "map: the bot keeps the positions and measures; table: your own table", required=True, choices=BATTLEFIELDS
    )


@dataclass(frozen=True, kw_only=True)
class JoinOptions(Params):
    side: str = option("The side you will play", Kind.SIDE, required=True, length=32)


@dataclass(frozen=True, kw_only=True)
class FileOptions(Params):
    file: Upload = option("A campaign file from /campaign export", Kind.FILE, required=True, example="campaign.yaml")  # noqa: RUF009 (a field, not a default)


@dataclass(frozen=True, kw_only=True)
class DeadlineOptions(Params):
    hours: float | None = option(
        "Hours a decision or turn may wait (leave out, with then, to clear the deadline)",
        Kind.NUMBER,
        lowest=0.5,
        highest=720.0,
    )
    then: str | None = option("At the deadline: pass the turn, or the game master decides", choices=("pass", "gm"))


@dataclass(frozen=True, kw_only=True)
class RulesFileOptions(Params):
    file: Upload = option(  # noqa: RUF009 (a field, not a default)
        FILE_HELP + ": the keys of the ruleset's tables to change", Kind.FILE, required=True, example="house-rules.yaml"
    )


@dataclass(frozen=True, kw_only=True)
class RulesShowOptions(Params):
    tables: bool | None = option("Also attach the ruleset's whole tables.yaml, to see every key", Kind.FLAG)


async def _new(app: App, caller: Caller, p: NewOptions) -> Reply:
    return await app.campaigns.campaign_new(caller, p.name, p.ruleset, p.battlefield)


async def _battlefield(app: App, caller: Caller, p: BattlefieldOptions) -> Reply:
    return await app.campaigns.campaign_battlefield(caller, p.mode)


async def _join(app: App, caller: Caller, p: JoinOptions) -> Reply:
    return await app.campaigns.campaign_join(caller, p.side)


async def _info(app: App, caller: Caller, p: NoParams) -> Reply:
    return await app.campaigns.campaign_info(caller)


async def _end(app: App, caller: Caller, p: NoParams) -> Reply:
    return await app.campaigns.campaign_end(caller)


async def _export(app: App, caller: Caller, p: NoParams) -> Reply:
    return await app.exchange.campaign_export(caller)


async def _import(app: App, caller: Caller, p: FileOptions) -> Reply:
    return await app.exchange.campaign_import(caller, p.file.filename, p.file.data)


async def _deadline(app: App, caller: Caller, p: DeadlineOptions) -> Reply:
    return await app.pace.set_deadline(caller, p.hours, p.then)


async def _rules_set(app: App, caller: Caller, p: RulesFileOptions) -> Reply:
    return await app.exchange.rules_set(caller, p.file.filename, p.file.data)


async def _rules_show(app: App, caller: Caller, p: RulesShowOptions) -> Reply:
    return await app.exchange.rules_show(caller, bool(p.tables))


async def _rules_clear(app: App, caller: Caller, p: NoParams) -> Reply:
    return await app.exchange.rules_clear(caller)


COMMANDS = (
    Command(
        ("campaign", "new"),
        "Start a campaign in this channel; you become its game master",
        NewOptions,
        _new,
        lock=True,
    ),
    Command(
        ("campaign", "battlefield"),
        "Fight the next battles on the bot's map or a table (GM)",
        BattlefieldOptions,
        _battlefield,
        lock=True,
        gm_only=True,
    ),
    Command(("campaign", "join"), "Join this channel's campaign on a side", JoinOptions, _join, lock=True),
    Command(("campaign", "info"), "The campaign's ruleset, game master, players and battles", NoParams, _info),
    Command(
        ("campaign", "end"),
        "End the campaign (game master only); its records are kept",
        NoParams,
        _end,
        lock=True,
        gm_only=True,
    ),
    Command(
        ("campaign", "export"),
        "The whole campaign as a YAML file: settings, house rules, members, rosters",
        NoParams,
        _export,
    ),
    Command(
        ("campaign", "import"),
        "Restore a campaign file here (its game master; or start the campaign anew)",
        FileOptions,
        _import,
        lock=True,
        gm_only=True,
    ),
    Command(
        ("campaign", "deadline"),
        "How long a turn may wait, and what happens then (game master)",
        DeadlineOptions,
        _deadline,
        lock=True,
        gm_only=True,
    ),
    Command(
        ("campaign", "rules", "set"),
        "Override the ruleset's tables and switches with a YAML file (game master)",
        RulesFileOptions,
        _rules_set,
        lock=True,
        gm_only=True,
    ),
    Command(
        ("campaign", "rules", "show"),
        "The house rules in force and the switches the ruleset offers",
        RulesShowOptions,
        _rules_show,
    ),
    Command(
        ("campaign", "rules", "clear"),
        "Play the ruleset as published again (game master)",
        NoParams,
        _rules_clear,
        lock=True,
        gm_only=True,
    ),
)
