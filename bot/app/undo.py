"""/game undo without a second chance at the dice.

An action that rolled a die or turned a card revealed something: taken back by its own player, it
would buy a re-roll. So its player only *asks*: the other side answers allow or refuse (a stored
decision of kind ``undo``, with buttons or /decide, that outlives a restart), and the game master
may answer for an absent side. The game master who plays no side is the referee and takes any action
back at once. A game master who holds a side is a player for undo: she asks the other side as every
player does (a game master other than the asker may answer, never the asker herself), or she could
re-roll her own side's dice at will. An action that revealed nothing (a move without dice, a
formation change) is taken back by its player at once.

While a request waits it is one of the game's open decisions, so the game waits for it as for any
other: the table answers it before playing on (a decision the game was already waiting for may
still be answered first, and then the request lapses). An allow never takes back another action
than the one asked about: the request names the action's log entry and the game's version when it
was asked, and if the game moved on since (that answer, the game master's own undo, a free action
that changed the table) the allow takes nothing back and says so.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.app.access import engine_of, may_decide, member_of
from bot.app.aftermath import AFTERMATH_COMMAND, Aftermath
from bot.app.context import Context
from bot.app.entries import command_line, log_entry
from bot.app.log_replay import apply_logged
from bot.app.open_decision import UNDO_KIND, open_decision
from bot.app.replies import Caller, Card, PendingDecision, Refusal, Reply, mentions
from bot.dice import ForcedDice, RolledDie
from bot.render.shown import shown
from bot.store import Unit
from bot.store.records import Campaign, Decision, Game, LoggedAction
from rules.core import Choice, Event, RuleError
from rules.core import Decision as AskedDecision

log = logging.getLogger("skirmish_gm.undo")

ALLOW, REFUSE = "allow", "refuse"
#: The event of a refused request to take back an action, in the log (/game log, /game report).
REFUSED_KIND = "undo-refused"
CHOICES = (Choice(ALLOW, "Allow"), Choice(REFUSE, "Refuse"))
#: What a game master who takes a side is told (on /campaign join's card and a campaign import's).
GM_PLAYS = "as a player, her /game undo of an action that rolled dice is asked of the other side"
#: How much of the command and of its dice a request's prompt quotes.
COMMAND_SHOWN = 80
VALUES_SHOWN = 6


def revealed(rolls: list[RolledDie]) -> str:
    """What an action revealed, shortly: "rolled 3, 5", "turned 2♠", or both."""
    parts = []
    for kind, verb in (("die", "rolled"), ("card", "turned")):
        values = [r.value for r in rolls if (r.kind == "card") == (kind == "card")]
        if values:
            shown = ", ".join(values[:VALUES_SHOWN]) + (", …" if len(values) > VALUES_SHOWN else "")
            parts.append(f"{verb} {shown}")
    return "; ".join(parts)


def kept_in_log(rolls: list[RolledDie]) -> str:
    """What of a taken-back action stays in the log, as the end of a sentence: "; the dice it rolled
    stay in the log" (its cards, or both), or nothing when it rolled nothing."""
    dice, cards = any(r.kind != "card" for r in rolls), any(r.kind == "card" for r in rolls)
    if not dice and not cards:
        return ""
    what = " and ".join(w for w, used in (("the dice it rolled", dice), ("the cards it turned", cards)) if used)
    return f"; {what} stay in the log"


def quoted(command: str) -> str:
    command = " ".join(command.replace("`", "'").split())
    return f"`{command if len(command) <= COMMAND_SHOWN else command[: COMMAND_SHOWN - 1] + '…'}`"


def other_side(sides: list[str], side: str | None) -> str:
    """Who answers a request to take back ``side``'s action: the next side in the ruleset's order
    (in a game of two, the other one); the game master when the action had no side."""
    names = [s.casefold() for s in sides]
    if side is None or side.casefold() not in names or len(sides) < 2:
        return "gm"
    return sides[(names.index(side.casefold()) + 1) % len(sides)]


async def gm_side(u: Unit, campaign: Campaign, caller: Caller) -> str | None:
    """The side the game master ``caller`` plays, None when she only referees."""
    member = await member_of(u, campaign, caller)
    return member.side if member is not None and member.role != "pending" else None


class Undo:
    def __init__(self, ctx: Context, aftermath: Aftermath) -> None:
        self.ctx = ctx
        self.aftermath = aftermath

    async def undo(self, u: Unit, campaign: Campaign, game: Game, caller: Caller) -> Reply:
        """/game undo on ``game`` (locked): taken back now, or asked of the other side."""
        record = await u.log.last_undoable(game.id, except_command=AFTERMATH_COMMAND)
        if record is None or record.state_before is None:
            raise Refusal("There is nothing to undo in this game.")
        is_gm = campaign.gm_id == caller.user_id
        if record.user_id != caller.user_id and not is_gm:
            raise Refusal("Only the player who made the last action, or the game master, may undo it.")
        plays = await gm_side(u, campaign, caller) if is_gm else None
        if (is_gm and plays is None) or not record.rolls:
            return await self.take_back(u, campaign, game, record, by=caller.display_name, by_gm=is_gm)
        return await self._ask(u, campaign, game, record, caller, plays or record.side)

    async def _ask(
        self, u: Unit, campaign: Campaign, game: Game, record: LoggedAction, caller: Caller, side: str | None
    ) -> Reply:
        """The request to take back ``record``, stored for the side after ``side`` (the asker's) to answer."""
        for waiting in await u.decisions.open_in_game(game.id):
            if waiting.kind == UNDO_KIND and waiting.resume.get("params", {}).get("action_id") == record.id:
                raise Refusal(f"Your request already waits for {waiting.decider}: {waiting.prompt}")
        decider = other_side(list(engine_of(campaign).sides()), side)
        prompt = f"{caller.display_name} asks to take back {quoted(record.command)} ({revealed(list(record.rolls))})"
        params = {
            "action_id": record.id,
            "version": game.version,
            "asker": caller.user_id,
            "asker_name": caller.display_name,
            "command": record.command[:200],
        }
        asked = AskedDecision(decider, f"{prompt}: allow or refuse?", CHOICES, UNDO_KIND, params)
        pending = await open_decision(u, campaign, game, asked, user_id=caller.user_id, kind=UNDO_KIND)
        log.info("game %s: %s asks to undo action %s", game.id, caller.user_id, record.id)
        why = "It rolled dice or turned cards, so it is taken back only if the other side allows it " + (
            "(a game master who plays a side asks as every player does)."
            if campaign.gm_id == caller.user_id
            else "(or the game master takes it back)."
        )
        reply = Reply(cards=[Card(title="Undo asked", description=f"{shown(prompt)}.\n{why}")], decision=pending)
        reply.ping_user_ids = list(pending.user_ids)
        reply.content = f"{mentions(pending.user_ids)} {pending.decider}: {shown(pending.prompt)}".strip()
        return reply

    async def check_answerer(self, u: Unit, campaign: Campaign, decision: Decision, caller: Caller, value: str) -> None:
        """Refused for anyone but the deciding side's players and the game master. The asker may
        refuse (withdraw) her own request, never allow it, whatever side she plays by then (a game
        master joins a side at once, so she could otherwise switch to the deciding side): a game
        master who asked needs the other side, or another game master."""
        if decision.user_id == caller.user_id:
            if value == REFUSE:
                return
            if campaign.gm_id == caller.user_id:
                raise Refusal(f"You asked to take it back: only {decision.decider}'s player may allow it.")
        elif campaign.gm_id == caller.user_id or await may_decide(u, campaign, decision.decider, caller):
            return
        raise Refusal(f"Only {decision.decider}'s player or the game master may answer this request.")

    async def answer(self, u: Unit, campaign: Campaign, decision: Decision, caller: Caller, value: str) -> Reply:
        """Allow: the action is taken back, if the game is still where it was when asked. Refuse:
        nothing changes. Either way the request is answered."""
        await u.decisions.answer(decision.id, value, self.ctx.clock())
        params: dict[str, Any] = decision.resume.get("params", {})
        asker, command = params.get("asker_name", "The player"), quoted(str(params.get("command", "")))
        who = caller.display_name + (" (game master)" if campaign.gm_id == caller.user_id else "")
        if value != ALLOW:
            log.info("undo request %s refused by %s", decision.id, caller.user_id)
            withdrawn = decision.user_id == caller.user_id
            refused = f"{asker} withdrew the request" if withdrawn else f"{who} refused {asker}'s request"
            text = f"{refused}: {command} stands, and nothing changes."
            typed = " ".join(str(params.get("command", "")).split())
            logged = await self._log_refusal(u, campaign, decision, caller, value, f"{refused}: {typed} stands.")
            return Reply(cards=[Card(title="Undo refused", description=text)], owed=logged)
        game = await u.games.get(decision.game_id, lock=True) if decision.game_id is not None else None
        record = None
        if game is not None and game.version == params.get("version") and (game.status == "active" or game.winner):
            record = await u.log.last_undoable(game.id, except_command=AFTERMATH_COMMAND)
        if game is None or record is None or record.id != params.get("action_id"):
            text = f"The game has moved on since {asker} asked: {command} is not taken back."
            return Reply(cards=[Card(title="Undo lapsed", description=text)])
        return await self.take_back(u, campaign, game, record, by=f"{asker}, allowed by {who}", by_gm=False)

    async def _log_refusal(
        self, u: Unit, campaign: Campaign, decision: Decision, caller: Caller, value: str, text: str
    ) -> bool:
        """A refused request is kept in the battle's log, so /game log and /game report show it: an
        entry that changed nothing (no state to go back to, no dice), like a free roll. Whether it
        was logged with the caller's interaction (whose answer it then owes)."""
        game = await u.games.get(decision.game_id) if decision.game_id is not None else None
        if game is None:
            return False
        params = decision.resume.get("params", {})
        event = Event(REFUSED_KIND, text, {"action": params.get("action_id"), "asker": params.get("asker_name")})
        entry = log_entry(
            game,
            await u.log.next_seq(game.id),
            caller,
            command_line("decide", "", {"choice": value}),
            state_before=None,
            by_gm=campaign.gm_id == caller.user_id,
            side=None,
            events=[event],
            rolled=(),
        )
        await u.play.append_action(entry)
        return entry.interaction_id is not None

    async def take_back(
        self, u: Unit, campaign: Campaign, game: Game, record: LoggedAction, *, by: str, by_gm: bool
    ) -> Reply:
        """``record`` undone: the state before it restored, the later entries that would not hold on
        it taken back with it (see :meth:`_not_holding`), the game's open decisions (a request among
        them) cancelled, and the choice the restored state waits for asked again. The dice it rolled
        stay in the log, marked taken back; the stream goes on, so a retaken action rolls anew."""
        await self.aftermath.revert_battle(u, campaign, game)
        assert record.state_before is not None
        game = await u.play.save_state(game, record.state_before)
        if game.status != "active" or game.winner is not None:
            game = await u.games.set_outcome(game, status="active", winner=None, ended_at=None)
        await u.log.mark_undone(record.id)
        for later in await self._not_holding(u, campaign, game, record):
            await u.log.mark_undone(later.id)
        await u.decisions.cancel_open(game_id=game.id)
        reopened = await self._reopen_waiting(u, campaign, game)
        log.info("game %s: action %s undone by %s%s", game.id, record.id, by, " (game master)" if by_gm else "")
        undone = f"{quoted(record.command)} is taken back{kept_in_log(list(record.rolls))}."
        footer = f"by {by}" + (" (game master)" if by_gm else "")
        reply = Reply(cards=[Card(title="Undone", description=undone, footer=footer)])
        if reopened is not None:
            reply.decision, reply.ping_user_ids = reopened, list(reopened.user_ids)
            waiting = f"Waiting for {reopened.decider} again: {shown(reopened.prompt)}"
            reply.content = f"{mentions(reopened.user_ids)} {waiting}".strip()
        return reply

    @staticmethod
    async def _not_holding(u: Unit, campaign: Campaign, game: Game, record: LoggedAction) -> list[LoggedAction]:
        """The actions logged after ``record`` that would do something else on the state before it.

        They changed nothing when given (or ``record`` would not be the newest to take back): a
        look, or an order given twice, like turning a man to the way he already faces. A look
        still holds on the restored state and stays; the second order, applied there, would turn
        him: left in the log, replaying it would no longer give the saved state."""
        engine = engine_of(campaign)
        restored = engine.load_state(record.state_before)
        kept = engine.dump_state(restored)
        gone = []
        for later in await u.log.entries_after(game.id, record.seq):
            if later.undone or not later.action or "name" not in later.action:
                continue
            try:
                holds = engine.dump_state(apply_logged(engine, restored, later.action, ForcedDice())) == kept
            except RuleError:
                holds = False
            if not holds:
                gone.append(later)
        return gone

    async def _reopen_waiting(self, u: Unit, campaign: Campaign, game: Game) -> PendingDecision | None:
        """After an undo, the choice the restored state waits for is asked again."""
        engine = engine_of(campaign)
        decision = engine.pending(engine.load_state(game.state))
        return await open_decision(u, campaign, game, decision) if decision is not None else None
