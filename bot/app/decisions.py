"""Decisions that belong to one player (or the game master): stored, listed, answered."""
from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app.base import AppBase, command_line
from bot.app.replies import Caller, Card, PendingDecision, Refusal, Reply, joined, side_colour
from bot.db.database import lock_game
from bot.db.models import Campaign, DecisionRecord, Game, Member
from rules.core import Action, Choice, Decision


class DecisionCommands(AppBase):
    async def _open(
        self, s: AsyncSession, campaign: Campaign, game: Game | None, decision: Decision,
        *, user_id: int | None = None, kind: str | None = None,
    ) -> PendingDecision:
        """Store ``decision`` so it can wait for hours and outlive a restart."""
        record = DecisionRecord(
            campaign_id=campaign.id, game_id=game.id if game else None, decider=decision.decider,
            user_id=user_id, kind=(kind or decision.resume_action)[:32], prompt=decision.prompt,
            choices=[{"value": c.value, "label": c.label} for c in decision.choices],
            resume={"action": decision.resume_action, "params": dict(decision.params)},
            status="open", channel_id=campaign.channel_id,
        )
        s.add(record)
        await s.flush()
        members = await self._side_members(s, campaign, decision.decider)
        return PendingDecision(record.id, decision.decider, tuple(m.user_id for m in members), decision.prompt, tuple(decision.choices))

    async def _may_decide(self, s: AsyncSession, campaign: Campaign, decision: DecisionRecord, caller: Caller) -> bool:
        if decision.decider == "gm":
            return campaign.gm_id == caller.user_id
        member = await self._member(s, campaign, caller)
        return member is not None and member.role != "pending" and member.side == decision.decider

    async def open_decisions(self, caller: Caller, *, mine: bool = True) -> list[PendingDecision]:
        """Decisions waiting in this channel (only those ``caller`` may answer, with ``mine``)."""
        async with self.db.transaction() as s:
            campaign = await self._campaign_here(s, caller)
            if campaign is None:
                return []
            records = list(await s.scalars(select(DecisionRecord).where(
                DecisionRecord.campaign_id == campaign.id, DecisionRecord.status == "open").order_by(DecisionRecord.id)))
            found = []
            for record in records:
                if mine and not await self._may_decide(s, campaign, record, caller):
                    continue
                found.append(PendingDecision(record.id, record.decider, (), record.prompt,
                                             tuple(Choice(c["value"], c["label"]) for c in record.choices)))
            return found

    async def decide(
        self, caller: Caller, choice: str | None, decision_id: int | None = None, *, index: int | None = None
    ) -> Reply:
        """Answer a waiting decision (a button gives its ``index``, /decide the choice): only its decider may."""
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            record = await self._decision_for(s, campaign, caller, decision_id)
            if record.status != "open":
                raise Refusal("That decision has already been made.")
            if not await self._may_decide(s, campaign, record, caller):
                raise Refusal("This is not your decision.")
            values = {c["value"].casefold(): c["value"] for c in record.choices}
            labels = {c["label"].casefold(): c["value"] for c in record.choices}
            wanted = (choice or "").strip().casefold()
            value = values.get(wanted) or labels.get(wanted)
            if index is not None and 0 <= index < len(record.choices):
                value = record.choices[index]["value"]
            if value is None:
                raise Refusal(f"Choose one of {joined([c['value'] for c in record.choices])}.")
            record.status, record.answer, record.answered_at = "answered", value, datetime.now(UTC)
            if record.game_id is None:
                return await self._resolve_campaign_decision(s, campaign, record, caller, value)
            game = await lock_game(s, record.game_id)
            if game is None or game.status != "active":
                raise Refusal("That game is over.")
            member = await self._member(s, campaign, caller)
            side = record.decider if record.decider != "gm" else (member.side if member else None)
            action = Action(record.resume["action"], side, {**record.resume.get("params", {}), "choice": value},
                            campaign.gm_id == caller.user_id and record.decider == "gm")
            return await self._apply(s, campaign, game, caller, action, command_line("decide", "", {"choice": value}))

    async def _decision_for(self, s: AsyncSession, campaign: Campaign, caller: Caller, decision_id: int | None) -> DecisionRecord:
        if decision_id is not None:
            record = await s.get(DecisionRecord, decision_id, with_for_update=True)
            if record is None or record.campaign_id != campaign.id:
                raise Refusal("There is no such decision in this channel.")
            return record
        for record in await s.scalars(select(DecisionRecord).where(
                DecisionRecord.campaign_id == campaign.id, DecisionRecord.status == "open").order_by(DecisionRecord.id)):
            if await self._may_decide(s, campaign, record, caller):
                return record
        raise Refusal("Nothing is waiting for your decision here.")

    async def _resolve_campaign_decision(
        self, s: AsyncSession, campaign: Campaign, record: DecisionRecord, caller: Caller, value: str
    ) -> Reply:
        if record.kind != "join":
            raise Refusal("That decision can no longer be answered.")
        params = record.resume.get("params", {})
        member = await s.scalar(select(Member).where(Member.campaign_id == campaign.id, Member.user_id == params.get("user_id")))
        if member is None:
            raise Refusal("That player has left the campaign.")
        if value == "approve":
            member.role = "player" if member.role == "pending" else member.role
            member.side = params.get("side")
            text = f"{member.display_name} now plays **{member.side}**."
        else:
            if member.role == "pending":
                await s.delete(member)
            text = f"The game master turned down {member.display_name}'s request."
        reply = Reply(cards=[Card(title="Join " + ("approved" if value == "approve" else "refused"), description=text,
                                  colour=side_colour(params.get("side")), footer=f"by {caller.display_name}")])
        reply.ping_user_ids = [member.user_id]
        reply.content = f"<@{member.user_id}>"
        return reply
