"""Decisions that belong to one player (or the game master): stored, listed, answered."""

from __future__ import annotations

from bot.app.access import campaign_here, campaign_of, may_decide, member_of
from bot.app.actions import Actions
from bot.app.context import Context
from bot.app.entries import command_line
from bot.app.open_decision import UNDO_KIND
from bot.app.replies import Caller, Card, PendingDecision, Refusal, Reply, joined, mentions
from bot.app.undo import Undo
from bot.render.shown import shown, side_colour
from bot.store import Unit
from bot.store.records import Campaign, Decision
from rules.core import Action

LAPSED = "The game moved on, so the request to take back an action waits no more: nothing is taken back."


class DecisionCommands:
    """/decide and the decision buttons: a waiting choice answered by its decider, or by the game
    master for an absent player."""

    def __init__(self, ctx: Context, actions: Actions, undo: Undo) -> None:
        self.ctx = ctx
        self.actions = actions
        self.undo = undo

    async def open_decisions(self, caller: Caller, *, mine: bool = True) -> list[PendingDecision]:
        """Decisions waiting in this channel (only those ``caller`` may answer, with ``mine``: the
        game master may answer a game's decision for any side)."""
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_here(u, caller)
            if campaign is None:
                return []
            found = []
            for decision in await u.decisions.open_in_campaign(campaign.id):
                if mine and not await self._may_answer(u, campaign, decision, caller):
                    continue
                found.append(PendingDecision(decision.id, decision.decider, (), decision.prompt, decision.choices))
            return found

    async def decide(
        self, caller: Caller, choice: str | None, decision_id: int | None = None, *, index: int | None = None
    ) -> Reply:
        """Answer a waiting decision (a button gives its ``index``, /decide the choice): its decider
        may, and the game master may for an absent player (the reply and the log say so)."""
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            decision = await self._decision_for(u, campaign, caller, decision_id)
            if decision.status != "open" and await self._applied(u, caller):
                again = Reply.note("Already decided", f"{shown(decision.prompt)}: **{shown(str(decision.answer))}**.")
                again.replayed = True
                return again
            if decision.status != "open":
                raise Refusal("That decision has already been made.")
            if decision.kind == UNDO_KIND:
                value = chosen_value(decision, choice, index)
                await self.undo.check_answerer(u, campaign, decision, caller, value)
                return await self.undo.answer(u, campaign, decision, caller, value)
            acting_for = await self._answering_for(u, campaign, decision, caller)
            value = chosen_value(decision, choice, index)
            if decision.game_id is None:
                await u.decisions.answer(decision.id, value, self.ctx.clock())
                return await self._resolve_campaign_decision(u, campaign, decision, caller, value)
            member = await member_of(u, campaign, caller)
            if acting_for is not None:
                # The game master answers on the player's behalf, with the player's say and no more.
                side: str | None = acting_for
                by_gm = False
                command = command_line("decide", "", {"choice": value}) + f" (game master for {acting_for})"
            else:
                side = decision.decider if decision.decider != "gm" else (member.side if member else None)
                by_gm = campaign.gm_id == caller.user_id and decision.decider == "gm"
                command = command_line("decide", "", {"choice": value})
            reply = await self.answer(u, campaign, decision, caller, value, side=side, by_gm=by_gm, command=command)
            if acting_for is not None and reply.cards:
                reply.cards[0].footer = f"by {caller.display_name} (game master for {acting_for})"
            return reply

    async def answer(
        self,
        u: Unit,
        campaign: Campaign,
        decision: Decision,
        caller: Caller,
        value: str,
        *,
        side: str | None,
        by_gm: bool,
        command: str,
    ) -> Reply:
        """Resume the game with ``value``; the decision is marked answered only once the engine took it.
        A request to take back an action (``undo``) is answered without the engine; any other answer
        moves the game on, so a request that waits lapses."""
        if decision.kind == UNDO_KIND:
            return await self.undo.answer(u, campaign, decision, caller, value)
        game = await u.games.get(decision.game_id, lock=True) if decision.game_id is not None else None
        if game is None or game.status != "active":
            raise Refusal("That game is over.")
        params = {**decision.resume.get("params", {}), "choice": value}
        action = Action(decision.resume["action"], side, params, by_gm)
        reply = await self.actions.apply(u, campaign, game, caller, action, command)
        await u.decisions.answer(decision.id, value, self.ctx.clock())
        if await u.decisions.cancel_open(game_id=game.id, kind=UNDO_KIND):
            reply.cards.append(Card(title="Undo lapsed", description=LAPSED))
        return reply

    @staticmethod
    async def _applied(u: Unit, caller: Caller) -> bool:
        """Whether this very interaction answered a decision already (a button press delivered twice)."""
        return caller.interaction_id is not None and await u.log.applied(caller.interaction_id) is not None

    async def _answering_for(self, u: Unit, campaign: Campaign, decision: Decision, caller: Caller) -> str | None:
        """``None`` when ``caller`` is the decision's own decider; the side when the game master
        answers it for an absent player; refused for anyone else."""
        if await may_decide(u, campaign, decision.decider, caller):
            return None
        if campaign.gm_id == caller.user_id and decision.decider != "gm" and decision.game_id is not None:
            return decision.decider
        raise Refusal("This is not your decision.")

    async def _may_answer(self, u: Unit, campaign: Campaign, decision: Decision, caller: Caller) -> bool:
        try:
            await self._answering_for(u, campaign, decision, caller)
        except Refusal:
            return False
        return True

    async def _decision_for(self, u: Unit, campaign: Campaign, caller: Caller, decision_id: int | None) -> Decision:
        """The decision asked for by number, else the oldest of the caller's own, else (for the game
        master) the oldest a game waits for; locked for this transaction."""
        if decision_id is not None:
            found = await u.decisions.get(decision_id, lock=True)
            if found is None or found.campaign_id != campaign.id:
                raise Refusal("There is no such decision in this channel.")
            return found
        waiting = await u.decisions.open_in_campaign(campaign.id)
        chosen = None
        for decision in waiting:
            if await may_decide(u, campaign, decision.decider, caller):
                chosen = decision
                break
        if chosen is None and campaign.gm_id == caller.user_id:
            chosen = next((d for d in waiting if d.game_id is not None and d.decider != "gm"), None)
        if chosen is None:
            raise Refusal("Nothing is waiting for your decision here.")
        locked = await u.decisions.get(chosen.id, lock=True)
        assert locked is not None
        return locked

    async def _resolve_campaign_decision(
        self, u: Unit, campaign: Campaign, decision: Decision, caller: Caller, value: str
    ) -> Reply:
        if decision.kind != "join":
            raise Refusal("That decision can no longer be answered.")
        params = decision.resume.get("params", {})
        member = await u.members.of(campaign.id, params.get("user_id"))
        if member is None:
            raise Refusal("That player has left the campaign.")
        if value == "approve":
            role = "player" if member.role == "pending" else member.role
            member = await u.members.set(member, side=params.get("side"), role=role)
            text = f"{shown(member.display_name)} now plays **{member.side}**."
            ping = f"you play {member.side}: add your figures with /roster add."
        else:
            if member.role == "pending":
                await u.members.remove(member.id)
            text = f"The game master turned down {shown(member.display_name)}'s request."
            ping = f"the game master turned down your request to play {params.get('side')}."
        card = Card(
            title="Join " + ("approved" if value == "approve" else "refused"),
            description=text,
            colour=side_colour(params.get("side")),
            footer=f"by {caller.display_name}",
        )
        return Reply(cards=[card], ping_user_ids=[member.user_id], content=f"{mentions([member.user_id])} {ping}")


def chosen_value(decision: Decision, choice: str | None, index: int | None) -> str:
    """The value a player chose, by its value or label (typed) or by its button's index."""
    values = {c.value.casefold(): c.value for c in decision.choices}
    labels = {c.label.casefold(): c.value for c in decision.choices}
    wanted = (choice or "").strip().casefold()
    value = values.get(wanted) or labels.get(wanted)
    if index is not None and 0 <= index < len(decision.choices):
        value = decision.choices[index].value
    if value is None:
        raise Refusal(f"Choose one of {joined([c.value for c in decision.choices])}.")
    return value
