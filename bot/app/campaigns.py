"""/campaign: create a campaign in a channel, join it, show it, end it."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select

from bot.app.base import CAMPAIGN_NAME_MAX, clean_name
from bot.app.decisions import DecisionCommands
from bot.app.replies import Caller, Card, Refusal, Reply, joined, mentions, side_colour
from bot.store.schema import Campaign, DecisionRecord, Figure, Game, Member
from rules import RULESETS
from rules.core import Choice, Decision, short


class CampaignCommands(DecisionCommands):
    async def campaign_new(self, caller: Caller, name: str, ruleset: str) -> Reply:
        name = clean_name(name, "campaign", CAMPAIGN_NAME_MAX)
        if ruleset not in RULESETS:
            raise Refusal(f"There is no ruleset {short(ruleset)}: choose one of {joined(list(RULESETS))}.")
        async with self._run_locked(caller), self.db.transaction() as s:
            existing = await s.scalar(
                select(Campaign).where(Campaign.channel_id == caller.channel_id, Campaign.active.is_(True))
            )
            if existing is not None:
                raise Refusal(
                    f"This channel already runs the campaign {short(existing.name)}; end it first with /campaign end."
                )
            campaign = Campaign(
                guild_id=caller.guild_id,
                channel_id=caller.channel_id,
                name=name,
                ruleset=ruleset,
                gm_id=caller.user_id,
                active=True,
                settings={},
            )
            s.add(campaign)
            await s.flush()
            s.add(
                Member(
                    campaign_id=campaign.id, user_id=caller.user_id, display_name=caller.display_name[:100], role="gm"
                )
            )
            engine = self._engine(campaign)
        title = RULESETS[ruleset][1]
        text = (
            f"**{name}** begins: {title}. {caller.display_name} is the game master.\n"
            f"Players: /campaign join with a side ({joined(list(engine.sides()))}), then /roster add."
        )
        return Reply(cards=[Card(title="New campaign", description=text, colour=side_colour(None))])

    async def campaign_join(self, caller: Caller, side: str) -> Reply:
        """The game master joins a side at once; a player asks, and the game master decides by button."""
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            engine = self._engine(campaign)
            side = self._check_side(engine, side)
            member = await self._member(s, campaign, caller)
            if campaign.gm_id == caller.user_id:
                assert member is not None
                member.side = side
                return Reply(
                    cards=[
                        Card(
                            title="Joined",
                            description=f"{caller.display_name} (game master) plays **{side}**.",
                            colour=side_colour(side),
                        )
                    ]
                )
            waiting = await s.scalar(
                select(DecisionRecord).where(
                    DecisionRecord.campaign_id == campaign.id,
                    DecisionRecord.status == "open",
                    DecisionRecord.kind == "join",
                    DecisionRecord.user_id == caller.user_id,
                )
            )
            if waiting is not None:
                raise Refusal("Your request to join is already waiting for the game master.")
            if member is not None and member.side == side:
                raise Refusal(f"You already play {side}.")
            if member is None:
                s.add(
                    Member(
                        campaign_id=campaign.id,
                        user_id=caller.user_id,
                        display_name=caller.display_name[:100],
                        role="pending",
                        side=None,
                    )
                )
            request = Decision(
                decider="gm",
                prompt=f"{caller.display_name} asks to play {side} in {campaign.name}.",
                choices=(Choice("approve", "Approve"), Choice("refuse", "Refuse")),
                resume_action="join",
                params={"user_id": caller.user_id, "side": side},
            )
            pending = await self._open(s, campaign, None, request, user_id=caller.user_id, kind="join")
        reply = Reply(
            cards=[
                Card(
                    title="Asking to join",
                    description=f"{caller.display_name} asks to play **{side}**; the game master decides.",
                    colour=side_colour(side),
                )
            ],
            decision=pending,
        )
        reply.ping_user_ids = list(pending.user_ids)
        reply.content = mentions(pending.user_ids) + " a player asks to join."
        return reply

    async def campaign_info(self, caller: Caller) -> Reply:
        async with self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            members = list(await s.scalars(select(Member).where(Member.campaign_id == campaign.id).order_by(Member.id)))
            count = await s.scalar(select(func.count()).select_from(Figure).where(Figure.campaign_id == campaign.id))
            game = await self._game(s, campaign)
            battles = await s.scalar(select(func.count()).select_from(Game).where(Game.campaign_id == campaign.id))
        gm = next((m.display_name for m in members if m.role == "gm"), "?")
        players = [f"{m.display_name} ({m.side})" for m in members if m.side]
        card = Card(title=f"Campaign: {campaign.name}", colour=side_colour(None))
        card.fields += [
            ("Ruleset", RULESETS[campaign.ruleset][1], True),
            ("Game master", gm, True),
            ("Figures", str(count), True),
            ("Players", joined(players), False),
            ("Battles", f"{battles}" + (" (one in progress)" if game else ""), True),
        ]
        return Reply(cards=[card], ephemeral=True)

    async def campaign_end(self, caller: Caller) -> Reply:
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            self._require_gm(campaign, caller, "end the campaign")
            game = await self._game(s, campaign, lock=True)
            if game is not None:
                game.status = "ended"
                game.ended_at = datetime.now(UTC)
            campaign.active = False
        return Reply(
            cards=[Card(title="Campaign ended", description=f"{campaign.name} is over. Its records are kept.")]
        )
