"""/campaign: create a campaign in a channel, join it, show it, end it."""

from __future__ import annotations

from bot.app.access import campaign_of, check_side, engine_of, member_of, require_gm
from bot.app.battle_dice import end_text
from bot.app.battlefield import (
    BATTLEFIELD,
    MAP_DRAFT,
    battlefield_of,
    check_battlefield,
    default_battlefield,
    where_fought,
)
from bot.app.context import Context
from bot.app.free_roll_dice import reveal as reveal_free_rolls
from bot.app.inputs import CAMPAIGN_NAME_MAX, clean_name
from bot.app.open_decision import open_decision
from bot.app.replies import Caller, Card, Refusal, Reply, joined, mentions
from bot.app.undo import GM_PLAYS
from bot.render.shown import shown, side_colour
from bot.store.records import Campaign
from rules import RULESETS, get_engine
from rules.core import Choice, Decision, short


class CampaignCommands:
    """A channel's campaign: started, joined (a player asks, the game master decides), shown, ended."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def campaign_new(self, caller: Caller, name: str, ruleset: str, battlefield: str | None = None) -> Reply:
        """A campaign in the caller's channel; ``battlefield`` ``map`` (the default for a ruleset the
        bot measures) or ``table``."""
        name = clean_name(name, "campaign", CAMPAIGN_NAME_MAX)
        if ruleset not in RULESETS:
            raise Refusal(f"There is no ruleset {short(ruleset)}: choose one of {joined(list(RULESETS))}.")
        rules = get_engine(ruleset, None)
        mode = check_battlefield(rules, battlefield) if battlefield else default_battlefield(rules)
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            existing = await u.campaigns.active_in_channel(caller.channel_id)
            if existing is not None:
                raise Refusal(
                    f"This channel already runs the campaign {short(existing.name)}; end it first with /campaign end."
                )
            campaign = await u.campaigns.create(
                guild_id=caller.guild_id,
                channel_id=caller.channel_id,
                name=name,
                ruleset=ruleset,
                gm_id=caller.user_id,
                settings={BATTLEFIELD: mode},
            )
            await u.members.add(campaign.id, caller.user_id, caller.display_name, "gm")
            engine = engine_of(campaign)
        title = RULESETS[ruleset][1]
        text = (
            f"**{shown(name)}** begins: {title}. {shown(caller.display_name)} is the game master.\n"
            f"Players: /campaign join with a side ({joined(list(engine.sides()))}), then /roster add.\n"
            + f"Battles are fought on {where_fought(engine, mode)}."
            + f"\nNew here? /help lists every command; /help topic:{ruleset} shows a turn of {title}."
        )
        return Reply(cards=[Card(title="New campaign", description=text, colour=side_colour(None))])

    async def campaign_join(self, caller: Caller, side: str) -> Reply:
        """The game master joins a side at once; a player asks, and the game master decides by button."""
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            side = check_side(engine_of(campaign), side)
            member = await member_of(u, campaign, caller)
            if campaign.gm_id == caller.user_id:
                assert member is not None
                await u.members.set(member, side=side)
                return Reply(
                    cards=[
                        Card(
                            title="Joined",
                            description=f"{shown(caller.display_name)} (game master) plays **{side}**: {GM_PLAYS}.",
                            colour=side_colour(side),
                        )
                    ]
                )
            if await u.decisions.join_waiting(campaign.id, caller.user_id):
                raise Refusal("Your request to join is already waiting for the game master.")
            if member is not None and member.side == side:
                raise Refusal(f"You already play {side}.")
            if member is None:
                await u.members.add(campaign.id, caller.user_id, caller.display_name, "pending")
            request = Decision(
                decider="gm",
                prompt=f"{caller.display_name} asks to play {side} in {campaign.name}.",
                choices=(Choice("approve", "Approve"), Choice("refuse", "Refuse")),
                resume_action="join",
                params={"user_id": caller.user_id, "side": side},
            )
            pending = await open_decision(u, campaign, None, request, user_id=caller.user_id, kind="join")
        reply = Reply(
            cards=[
                Card(
                    title="Asking to join",
                    description=f"{shown(caller.display_name)} asks to play **{side}**; the game master decides.",
                    colour=side_colour(side),
                )
            ],
            decision=pending,
        )
        reply.ping_user_ids = list(pending.user_ids)
        reply.content = mentions(pending.user_ids) + " a player asks to join."
        return reply

    async def campaign_battlefield(self, caller: Caller, mode: str) -> Reply:
        """Play the next battles on the bot's map or on a table (the game master, between battles)."""
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            require_gm(campaign, caller, "change the battlefield")
            campaign = await u.campaigns.get(campaign.id, lock=True)  # settings are shared with other commands
            engine = engine_of(campaign)
            chosen = check_battlefield(engine, mode)
            if await u.games.in_progress(campaign.id) is not None:
                raise Refusal("A battle is in progress: change the battlefield after it.")
            if battlefield_of(campaign) == chosen:
                raise Refusal(f"This campaign already plays on {'the map' if chosen == 'map' else 'a table'}.")
            await u.campaigns.set_settings(campaign.id, {**(campaign.settings or {}), BATTLEFIELD: chosen})
        text = (
            f"**{shown(campaign.name)}** fights its next battles on the bot's map: /map new picks one "
            "(or /game start takes a shipped map)."
            if chosen == "map"
            else f"**{shown(campaign.name)}** plays its next battles on {where_fought(engine, chosen)}."
        )
        return Reply(cards=[Card(title="Battlefield changed", description=text, colour=side_colour(None))])

    async def campaign_info(self, caller: Caller) -> Reply:
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            members = await u.members.all(campaign.id)
            count = await u.figures.count(campaign.id)
            game = await u.games.in_progress(campaign.id)
            battles = await u.games.count(campaign.id)
        gm = next((shown(m.display_name) for m in members if m.role == "gm"), "?")
        players = [f"{shown(m.display_name)} ({m.side})" for m in members if m.side]
        card = Card(title=f"Campaign: {shown(campaign.name)}", colour=side_colour(None))
        card.fields += [
            ("Ruleset", RULESETS[campaign.ruleset][1], True),
            ("Game master", gm, True),
            ("Figures", str(count), True),
            ("Players", joined(players), False),
            ("Battles", f"{battles}" + (" (one in progress)" if game else ""), True),
            ("Battlefield", self._battlefield_text(campaign), True),
        ]
        card.fields += [(heading, text, False) for heading, text in engine_of(campaign).about()]
        return Reply(cards=[card], ephemeral=True)

    @staticmethod
    def _battlefield_text(campaign: Campaign) -> str:
        if engine_of(campaign).own_board:
            return "the bot's grid board"
        if battlefield_of(campaign) != "map":
            return "a table"
        draft = (campaign.settings or {}).get(MAP_DRAFT)
        name = draft.get("name") if isinstance(draft, dict) else None
        return f"the map ({shown(short(str(name)))})" if name else "the map (none drafted yet)"

    async def campaign_end(self, caller: Caller) -> Reply:
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            require_gm(campaign, caller, "end the campaign")
            game = await u.games.in_progress(campaign.id, lock=True)
            card = Card(title="Campaign ended", description=f"{shown(campaign.name)} is over. Its records are kept.")
            if game is not None:
                await u.games.set_outcome(game, status="ended", winner=game.winner, ended_at=self.ctx.clock())
                card.fields.append((f"Dice of battle {game.number}", end_text(game), False))
            between = await reveal_free_rolls(u, campaign, self.ctx.clock())
            if between is not None:
                card.fields.append(("Free rolls revealed", between, False))
            await u.campaigns.end(campaign.id)
        return Reply(cards=[card])
