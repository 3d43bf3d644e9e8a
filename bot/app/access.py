"""Who is calling, in which campaign, and what they may do: the checks every command opens with."""

from __future__ import annotations

from typing import Any

from bot.app.context import LoadedStates
from bot.app.replies import Caller, Refusal, joined
from bot.store import Unit
from bot.store.records import Campaign, Figure, Game, Member
from rules import get_engine
from rules.core import Engine, short

NO_CAMPAIGN = "There is no campaign in this channel: start one with /campaign new."
#: The campaign setting that says how many battles it fought before it was imported here: its
#: battles go on from there, so a history's "battle 5: misses the next 2" still counts right.
BATTLES_BEFORE = "battles_before"
#: The most battles a campaign counts (its ``battles_before``, a history's battle number): far
#: beyond any campaign, and far below the 32-bit numbers /game log and /game report name battles by.
BATTLES_MAX = 100_000


async def campaign_here(u: Unit, caller: Caller) -> Campaign | None:
    """The active campaign of the caller's channel, if there is one."""
    return await u.campaigns.here(caller.guild_id, caller.channel_id)


async def campaign_of(u: Unit, caller: Caller) -> Campaign:
    campaign = await campaign_here(u, caller)
    if campaign is None:
        raise Refusal(NO_CAMPAIGN)
    return campaign


async def member_of(u: Unit, campaign: Campaign, caller: Caller) -> Member | None:
    """The caller's membership, with the display name Discord shows now."""
    member = await u.members.of(campaign.id, caller.user_id)
    return None if member is None else await u.members.seen_as(member, caller.display_name)


async def may_decide(u: Unit, campaign: Campaign, decider: str, caller: Caller) -> bool:
    """Whether ``caller`` is ``decider`` itself: the game master for "gm", else a player of that side."""
    if decider == "gm":
        return campaign.gm_id == caller.user_id
    member = await member_of(u, campaign, caller)
    return member is not None and member.role != "pending" and member.side == decider


def must_play(member: Member | None) -> Member:
    if member is None:
        raise Refusal("You are not in this campaign: join it with /campaign join.")
    if member.role == "pending":
        raise Refusal("Your request to join is still waiting for the game master.")
    return member


async def player_of(u: Unit, campaign: Campaign, caller: Caller) -> Member:
    return must_play(await member_of(u, campaign, caller))


async def campaign_and_player(u: Unit, caller: Caller) -> tuple[Campaign, Member]:
    """The channel's campaign and the caller's membership, in one query (the hot path)."""
    found = await u.play.campaign_and_member(caller.guild_id, caller.channel_id, caller.user_id, caller.display_name)
    if found is None:
        raise Refusal(NO_CAMPAIGN)
    campaign, member = found
    return campaign, must_play(member)


def require_gm(campaign: Campaign, caller: Caller, doing: str) -> None:
    if campaign.gm_id != caller.user_id:
        raise Refusal(f"Only the game master may {doing}.")


def engine_of(campaign: Campaign) -> Engine[Any]:
    """The campaign's ruleset with its house rules (engines are built once and shared)."""
    return get_engine(campaign.ruleset, campaign.house_rules)


def check_side(engine: Engine[Any], side: str) -> str:
    """The side ``side`` names, as the ruleset spells it."""
    for known in engine.sides():
        if known.casefold() == (side or "").strip().casefold():
            return known
    raise Refusal(f"{short(side)} is not a side here: choose {joined(list(engine.sides()))}.")


async def figure_of(u: Unit, campaign: Campaign, name: str) -> Figure:
    figure = await u.figures.named(campaign.id, name)
    if figure is None:
        raise Refusal(f"There is no figure called {short(name)} in this campaign's rosters.")
    return figure


def figure_names_in(states: LoadedStates, campaign: Campaign, game: Game) -> list[str]:
    """The names of the figures in a game, as its board lists them."""
    engine = engine_of(campaign)
    return [line.name for line in engine.board(states.load(engine, game)).figures]


async def battles_fought(u: Unit, campaign: Campaign) -> int:
    """The campaign's last battle number: its own games', or the count it was imported with."""
    return max(await u.games.last_number(campaign.id), (campaign.settings or {}).get(BATTLES_BEFORE, 0))
