"""Decisions that belong to one player (or the game master): stored, listed, answered."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app.base import AppBase, command_line
from bot.app.replies import Caller, Card, PendingDecision, Refusal, Reply, joined, side_colour
from bot.app.rows import CampaignRow, GameRow
from bot.store.database import lock_game
from bot.store.schema import Campaign, DecisionRecord, Game, Member
from bot.store.tx import SessionTx
from rules.core import Action, Choice, Decision


class DecisionCommands(AppBase):
    async def _open(
        self,
        s: AsyncSession,
        campaign: Campaign | CampaignRow,
        game: Game | GameRow | None,
        decision: Decision,
        *,
        user_id: int | None = None,
        kind: str | None = None,
    ) -> PendingDecision:
        """Store ``decision`` so it can wait for hours and outlive a restart."""
        record = DecisionRecord(
            campaign_id=campaign.id,
            game_id=game.id if game else None,
            decider=decision.decider,
            user_id=user_id,
            kind=(kind or decision.resume_action)[:32],
            prompt=decision.prompt,
            choices=[{"value": c.value, "label": c.label} for c in decision.choices],
            resume={"action": decision.resume_action, "params": dict(decision.params)},
            status="open",
            channel_id=campaign.channel_id,
        )
        s.add(record)
        await s.flush()
        user_ids = await self._side_user_ids(SessionTx(s), campaign.id, decision.decider)
        return PendingDecision(record.id, decision.decider, tuple(user_ids), decision.prompt, tuple(decision.choices))

    async def _may_decide(self, s: AsyncSession, campaign: Campaign, decision: DecisionRecord, caller: Caller) -> bool:
        if decision.decider == "gm":
            return campaign.gm_id == caller.user_id
        member = await self._member(s, campaign, caller)
        return member is not None and member.role != "pending" and member.side == decision.decider

    async def _answering_for(
        self, s: AsyncSession, campaign: Campaign, decision: DecisionRecord, caller: Caller
    ) -> str | None:
        """``None`` when ``caller`` is the decision's own decider; the side when the game master
        answers it for an absent player; refused for anyone else."""
        if await self._may_decide(s, campaign, decision, caller):
            return None
        if campaign.gm_id == caller.user_id and decision.decider != "gm" and decision.game_id is not None:
            return decision.decider
        raise Refusal("This is not your decision.")

    async def open_decisions(self, caller: Caller, *, mine: bool = True) -> list[PendingDecision]:
        """Decisions waiting in this channel (only those ``caller`` may answer, with ``mine``: the
        game master may answer a game's decision for any side)."""
        async with self.db.transaction() as s:
            campaign = await self._campaign_here(s, caller)
            if campaign is None:
                return []
            records = list(
                await s.scalars(
                    select(DecisionRecord)
                    .where(DecisionRecord.campaign_id == campaign.id, DecisionRecord.status == "open")
                    .order_by(DecisionRecord.id)
                )
            )
            found = []
            for record in records:
                if mine and not await self._may_answer(s, campaign, record, caller):
                    continue
                found.append(
                    PendingDecision(
                        record.id,
                        record.decider,
                        (),
                        record.prompt,
                        tuple(Choice(c["value"], c["label"]) for c in record.choices),
                    )
                )
            return found

    async def _may_answer(self, s: AsyncSession, campaign: Campaign, decision: DecisionRecord, caller: Caller) -> bool:
        try:
            await self._answering_for(s, campaign, decision, caller)
        except Refusal:
            return False
        return True

    async def decide(
        self, caller: Caller, choice: str | None, decision_id: int | None = None, *, index: int | None = None
    ) -> Reply:
        """Answer a waiting decision (a button gives its ``index``, /decide the choice): its decider
        may, and the game master may for an absent player (the reply and the log say so)."""
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            record = await self._decision_for(s, campaign, caller, decision_id)
            if record.status != "open":
                raise Refusal("That decision has already been made.")
            acting_for = await self._answering_for(s, campaign, record, caller)
            value = self._chosen_value(record, choice, index)
            if record.game_id is None:
                record.status, record.answer, record.answered_at = "answered", value, datetime.now(UTC)
                return await self._resolve_campaign_decision(s, campaign, record, caller, value)
            member = await self._member(s, campaign, caller)
            if acting_for is not None:
                # The game master answers on the player's behalf, with the player's say and no more.
                side, by_gm = acting_for, False
                command = command_line("decide", "", {"choice": value}) + f" (game master for {acting_for})"
            else:
                side = record.decider if record.decider != "gm" else (member.side if member else None)
                by_gm = campaign.gm_id == caller.user_id and record.decider == "gm"
                command = command_line("decide", "", {"choice": value})
            reply = await self._answer(s, campaign, record, caller, value, side=side, by_gm=by_gm, command=command)
            if acting_for is not None and reply.cards:
                reply.cards[0].footer = f"by {caller.display_name} (game master for {acting_for})"
            return reply

    @staticmethod
    def _chosen_value(record: DecisionRecord, choice: str | None, index: int | None) -> str:
        values = {c["value"].casefold(): c["value"] for c in record.choices}
        labels = {c["label"].casefold(): c["value"] for c in record.choices}
        wanted = (choice or "").strip().casefold()
        value = values.get(wanted) or labels.get(wanted)
        if index is not None and 0 <= index < len(record.choices):
            value = record.choices[index]["value"]
        if value is None:
            raise Refusal(f"Choose one of {joined([c['value'] for c in record.choices])}.")
        return value

    async def _answer(
        self,
        s: AsyncSession,
        campaign: Campaign,
        record: DecisionRecord,
        caller: Caller,
        value: str,
        *,
        side: str | None,
        by_gm: bool,
        command: str,
    ) -> Reply:
        """Resume the game with ``value``; the decision is marked answered only once the engine took it."""
        game = await lock_game(s, record.game_id) if record.game_id is not None else None
        if game is None or game.status != "active":
            raise Refusal("That game is over.")
        action = Action(record.resume["action"], side, {**record.resume.get("params", {}), "choice": value}, by_gm)
        reply = await self._apply(SessionTx(s), campaign, game, caller, action, command)  # type: ignore[attr-defined]
        record.status, record.answer, record.answered_at = "answered", value, datetime.now(UTC)
        return reply

    async def _decision_for(
        self, s: AsyncSession, campaign: Campaign, caller: Caller, decision_id: int | None
    ) -> DecisionRecord:
        """The decision asked for by number, else the oldest of the caller's own, else (for the game
        master) the oldest a game waits for; locked for this transaction."""
        if decision_id is not None:
            record = await s.get(DecisionRecord, decision_id, with_for_update=True)
            if record is None or record.campaign_id != campaign.id:
                raise Refusal("There is no such decision in this channel.")
            return record
        records = list(
            await s.scalars(
                select(DecisionRecord)
                .where(DecisionRecord.campaign_id == campaign.id, DecisionRecord.status == "open")
                .order_by(DecisionRecord.id)
            )
        )
        chosen = None
        for record in records:
            if await self._may_decide(s, campaign, record, caller):
                chosen = record
                break
        if chosen is None and campaign.gm_id == caller.user_id:
            chosen = next((r for r in records if r.game_id is not None and r.decider != "gm"), None)
        if chosen is None:
            raise Refusal("Nothing is waiting for your decision here.")
        await s.refresh(chosen, with_for_update=True)
        return chosen

    async def _resolve_campaign_decision(
        self, s: AsyncSession, campaign: Campaign, record: DecisionRecord, caller: Caller, value: str
    ) -> Reply:
        if record.kind != "join":
            raise Refusal("That decision can no longer be answered.")
        params = record.resume.get("params", {})
        member = await s.scalar(
            select(Member).where(Member.campaign_id == campaign.id, Member.user_id == params.get("user_id"))
        )
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
        reply = Reply(
            cards=[
                Card(
                    title="Join " + ("approved" if value == "approve" else "refused"),
                    description=text,
                    colour=side_colour(params.get("side")),
                    footer=f"by {caller.display_name}",
                )
            ]
        )
        reply.ping_user_ids = [member.user_id]
        reply.content = f"<@{member.user_id}>"
        return reply
