"""One engine action applied: acted, logged with its dice, saved, and answered.

Every way an action reaches a game goes through :meth:`Actions.apply`: a player's command, a
decision answered (by button, by /decide, by the game master for an absent player) and a turn
passed when its deadline runs out.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from bot.app.access import engine_of
from bot.app.aftermath import Aftermath
from bot.app.context import Context
from bot.app.decisions import open_decision
from bot.app.entries import log_entry
from bot.app.replies import Caller, Reply, mentions
from bot.dice import RecordingDice
from bot.render.cards import action_cards, board_card, board_files
from bot.store import Unit
from bot.store.records import Campaign, Game, LogEntry
from rules.core import Action, Engine, Outcome


async def replayed(u: Unit, interaction_id: int) -> Reply | None:
    """A repeated delivery of an interaction already applied: its result again, nothing re-done."""
    done = await u.log.applied(interaction_id)
    if done is None:
        return None
    cards = action_cards(f"Already applied: {done.command}", "", done.side, done.events, done.rolls)
    return Reply(cards=cards, events=list(done.events), rolls=list(done.rolls), ephemeral=True, replayed=True)


class Actions:
    def __init__(self, ctx: Context, aftermath: Aftermath) -> None:
        self.ctx = ctx
        self.aftermath = aftermath

    async def apply(
        self,
        u: Unit,
        campaign: Campaign,
        game: Game,
        caller: Caller,
        action: Action,
        command: str,
        *,
        state: Any = None,
        seq: int | None = None,
        engine: Engine[Any] | None = None,
    ) -> Reply:
        """Act on ``game`` (locked by the caller), log the action with its dice, save the new state.

        ``state`` is the game's state as built from a committed row (:class:`LoadedStates`); without
        it the state is built afresh, since the game may hold this transaction's own writes.
        """
        engine = engine or engine_of(campaign)
        if state is None:
            state = engine.load_state(game.state)
        before_turn = engine.whose_turn(state)
        dice = RecordingDice(self.ctx.dice())
        outcome = engine.act(state, action, dice)
        if seq is None:
            seq = await u.log.next_seq(game.id)
        logged = {
            "name": action.name,
            "side": action.side,
            "params": dict(action.params),
            "by_gm": action.by_gm,
        }
        entry = log_entry(
            game,
            seq,
            caller,
            command,
            state_before=game.state,
            by_gm=action.by_gm,
            side=action.side,
            events=outcome.events,
            rolled=dice.rolled,
            action=logged,
        )
        await u.log.append(entry)
        game = await u.games.save_state(game, engine.dump_state(outcome.state))
        if not engine.finished(outcome.state):  # a battle's close works on its final state: built afresh when read
            u.on_commit(partial(self.ctx.states.keep, game.id, game.version, engine, outcome.state))
        title = f"{(action.side or 'Game master').title()} · {action.name}"
        return await self.answer(u, campaign, engine, game, entry, caller, before_turn, outcome, title, action.side)

    async def answer(
        self,
        u: Unit,
        campaign: Campaign,
        engine: Engine[Any],
        game: Game,
        entry: LogEntry,
        caller: Caller,
        before_turn: str | None,
        outcome: Outcome[Any],
        title: str,
        side: str | None,
    ) -> Reply:
        """What an action (or a battle's start) tells the table: its cards, the battle's close if it
        ended, the board when a phase begins, and who must move or decide next."""
        reply = Reply(
            cards=action_cards(title, caller.display_name, side, outcome.events, entry.rolls),
            events=list(outcome.events),
            rolls=list(entry.rolls),
        )
        if engine.finished(outcome.state):
            game = await u.games.set_outcome(
                game, status="ended", winner=engine.winner(outcome.state), ended_at=self.ctx.clock()
            )
            closed = await self.aftermath.close_battle(u, campaign, game, engine, outcome.state)
            reply.cards.extend(closed.cards)
            reply.events.extend(closed.events)
            reply.rolls.extend(closed.rolls)
        if any(e.kind == "phase" for e in outcome.events):  # a grid board is redrawn as each phase begins
            board = engine.board(outcome.state)
            if board.grid is not None:
                reply.cards.append(board_card(f"{campaign.name}: the table", board))
                reply.files = board_files(board)
        now_turn = engine.whose_turn(outcome.state)
        if outcome.pending is not None:
            reply.decision = await open_decision(u, campaign, game, outcome.pending)
            waiting = f"Waiting for {outcome.pending.decider}: {outcome.pending.prompt}"
            reply.content = f"{mentions(reply.decision.user_ids)} {waiting}".strip()
            reply.ping_user_ids = list(reply.decision.user_ids)
        elif now_turn is not None and now_turn != before_turn:
            reply.ping_user_ids = await u.members.user_ids_of(campaign.id, now_turn)
            reply.content = f"{mentions(reply.ping_user_ids)} {now_turn}: your move.".strip()
        return reply
