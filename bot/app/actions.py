"""A ruleset's action (``/sharpe shoot …``): loaded, checked, acted, logged with its dice, saved, answered.

:meth:`Actions.act` is the whole path of a player's action, the command sent most: its database
side is :class:`bot.store.play.Play`. Every other way an action reaches a game goes through
:meth:`Actions.apply` too: a decision answered (by button, by /decide, by the game master for an
absent player) and a turn passed when its deadline runs out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from bot.app.access import NO_CAMPAIGN, engine_of, must_play
from bot.app.aftermath import Aftermath
from bot.app.battle_dice import command_dice, progress, stream_of, unproven_text
from bot.app.battlefield import ON_A_TABLE, game_picture, not_on_map
from bot.app.context import Context
from bot.app.decisions import open_decision
from bot.app.entries import log_entry
from bot.app.replies import Caller, Card, Refusal, Reply, mentions
from bot.app.sole_choice import act_taking_sole_choices, asks_always
from bot.render.cards import action_cards, board_card, board_files
from bot.render.shown import shown
from bot.store import Unit
from bot.store.records import Campaign, Game, LogEntry
from rules import RULESETS
from rules.core import Action, Engine, Outcome


async def replayed(u: Unit, interaction_id: int) -> Reply | None:
    """A repeated delivery of an interaction already applied: its result again, nothing re-done."""
    done = await u.log.applied(interaction_id)
    if done is None:
        return None
    cards = action_cards(f"Already applied: {done.command}", "", done.side, done.events, done.rolls)
    return Reply(cards=cards, events=list(done.events), rolls=list(done.rolls), ephemeral=True, replayed=True)


class _NoDice:
    """A question's dice: it asks for none (a die asked for is a bug in the ruleset)."""

    def roll(self, sides: int, reason: str) -> int:
        raise AssertionError(f"a question rolled a die: {reason}")

    def draw(self, cards: Sequence[str], reason: str) -> str:
        raise AssertionError(f"a question drew a card: {reason}")


def answered(engine: Engine[Any], state: Any, action: Action) -> Reply:
    """A ruleset's question (``engine.questions``, YASG's look): answered from the board to the asker
    alone, like /odds; nothing is saved or logged, so the log and the report list only actions. An
    answer of one event may give its card a ``heading`` and a ``footer`` in its data."""
    outcome = engine.act(state, action, _NoDice())
    text = "\n".join(e.text for e in outcome.events)
    card = Card(title=action.name.title(), description=text)
    if len(outcome.events) == 1:
        data = outcome.events[0].data
        card = Card(title=str(data.get("heading") or card.title), description=text, footer=data.get("footer"))
    return Reply(cards=[card], events=list(outcome.events), ephemeral=True)


class Actions:
    def __init__(self, ctx: Context, aftermath: Aftermath) -> None:
        self.ctx = ctx
        self.aftermath = aftermath

    async def act(
        self, caller: Caller, ruleset: str | None, action_name: str, params: Mapping[str, Any], command: str
    ) -> Reply:
        """One phase action of a ruleset (``/ssg shoot ...``), applied once and logged with its dice.

        ``ruleset`` None: an action of the bot's map (``/map place``), taken by whichever ruleset the
        channel plays, in a battle fought on the map."""
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            loaded = await u.play.load_for_action(
                caller.guild_id, caller.channel_id, caller.user_id, caller.display_name, caller.interaction_id
            )
            if loaded is None:
                raise Refusal(NO_CAMPAIGN)
            campaign, member, game = loaded.campaign, must_play(loaded.member), loaded.game
            if ruleset is not None and campaign.ruleset != ruleset:
                raise Refusal(
                    f"This channel plays {RULESETS[campaign.ruleset][1]}: use /{campaign.ruleset} commands here."
                )
            if game is None:
                latest = await u.games.latest(campaign.id)
                if latest is not None and latest.winner:
                    raise Refusal(
                        f"The game is over: {latest.winner} won. The game master can start another with /game start."
                    )
                raise Refusal("No game is in progress: the game master starts one with /game start.")
            if loaded.applied and caller.interaction_id is not None:
                again = await replayed(u, caller.interaction_id)
                if again is not None:
                    return again
            engine = engine_of(campaign)
            if action_name in engine.questions:
                is_gm = campaign.gm_id == caller.user_id
                return answered(
                    engine, self.ctx.states.load(engine, game), Action(action_name, member.side, dict(params), is_gm)
                )
            if loaded.waiting is not None and action_name not in engine.free_actions:
                decision = await u.decisions.get(loaded.waiting)
                assert decision is not None
                raise Refusal(f"Waiting for {decision.decider} to decide: {decision.prompt}")
            state = self.ctx.states.load(engine, game)
            if ruleset is None and engine.field_of(state) is None:
                raise Refusal(not_on_map(engine) if engine.own_board else ON_A_TABLE)
            is_gm = campaign.gm_id == caller.user_id
            side = member.side
            if is_gm:
                turn = engine.whose_turn(state)
                if turn is not None and side != turn:
                    side = turn  # the game master acts for the side whose turn it is
                else:
                    is_gm = member.side is None
            action = Action(action_name, side, dict(params), is_gm)
            return await self.apply(
                u, campaign, game, caller, action, command, state=state, seq=loaded.last_seq + 1, engine=engine
            )

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
        dice = command_dice(self.ctx.dice(), stream_of(game))
        outcome, taken = act_taking_sole_choices(engine, state, action, dice, ask=asks_always(campaign.settings))
        if seq is None:
            seq = await u.log.next_seq(game.id)
        logged: dict[str, Any] = {
            "name": action.name,
            "side": action.side,
            "params": dict(action.params),
            "by_gm": action.by_gm,
        }
        if taken:
            logged["then"] = taken
        after = engine.dump_state(outcome.state)
        entry = log_entry(
            game,
            seq,
            caller,
            command,
            state_before=game.state if dice.rolled or after != game.state else None,  # a look is never undone
            by_gm=action.by_gm,
            side=action.side,
            events=outcome.events,
            rolled=dice.rolled,
            action=logged,
        )
        await u.play.append_action(entry)
        was_provable = game.dice_note is None
        game = await u.play.save_state(game, after, **progress(dice))
        if not engine.finished(outcome.state):  # a battle's close works on its final state: built afresh when read
            u.on_commit(partial(self.ctx.states.keep, game.id, game.version, engine, outcome.state))
        title = f"{(action.side or 'Game master').title()} · {action.name}"
        reply = await self.answer(
            u,
            campaign,
            engine,
            game,
            entry,
            caller,
            before_turn,
            outcome,
            title,
            action.side,
            moved_on=engine.moved_on(state, outcome.events),
        )
        if was_provable and game.dice_note is not None and reply.cards:
            reply.cards[0].fields.append(("Provable dice", unproven_text(game.dice_note), False))
        return reply

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
        *,
        moved_on: bool = False,
    ) -> Reply:
        """What an action (or a battle's start) tells the table: its cards, the battle's close if it
        ended, the battlefield when the action closed a stretch of play (``moved_on``, as
        :meth:`Engine.moved_on` says: a phase, a bound, a side's turn; not every figure's move), and
        who must move or decide next."""
        reply = Reply(
            cards=action_cards(title, caller.display_name, side, outcome.events, entry.rolls),
            events=list(outcome.events),
            rolls=list(entry.rolls),
            owed=entry.interaction_id is not None,
        )
        if engine.finished(outcome.state):
            game = await u.games.set_outcome(
                game, status="ended", winner=engine.winner(outcome.state), ended_at=self.ctx.clock()
            )
            closed = await self.aftermath.close_battle(u, campaign, game, engine, outcome.state)
            reply.cards.extend(closed.cards)
            reply.events.extend(closed.events)
            reply.rolls.extend(closed.rolls)
        board = None
        if moved_on:
            board = engine.board(outcome.state)
            if board.grid is not None:
                reply.cards.append(board_card(f"{campaign.name}: the table", board, brief=True))
                reply.files = board_files(board)
            else:
                card = Card(title=f"{shown(campaign.name)}: the battlefield")
                game_picture(reply, card, engine, game, outcome.state, brief=True)
        now_turn = engine.whose_turn(outcome.state)
        if outcome.pending is not None:
            reply.decision = await open_decision(u, campaign, game, outcome.pending)
            waiting = f"Waiting for {outcome.pending.decider}: {shown(outcome.pending.prompt)}"
            reply.content = f"{mentions(reply.decision.user_ids)} {waiting}".strip()
            reply.ping_user_ids = list(reply.decision.user_ids)
        elif now_turn is not None and now_turn != before_turn:
            reply.ping_user_ids = await u.members.user_ids_of(campaign.id, now_turn)
            acting = engine.acting(outcome.state)
            named = f" — {shown(acting)} to act" if acting else ""
            reply.content = f"{mentions(reply.ping_user_ids)} {now_turn}: your move{named}.".strip()
            reply.offer_moves(campaign.ruleset, engine, outcome.state, now_turn, board)
        return reply
