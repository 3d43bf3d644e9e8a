"""/game and the rulesets' actions: start, act (load, check, act, save, render), status, undo, end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.app import map_checks
from bot.app.access import (
    battles_fought,
    campaign_of,
    engine_of,
    player_of,
    require_gm,
)
from bot.app.actions import Actions
from bot.app.aftermath import Aftermath
from bot.app.battle_dice import command_dice, is_provable, new_stream, start_text, status_text
from bot.app.battle_dice import started as started_stream
from bot.app.battlefield import MAP_DRAFT, battle_map, game_picture, on_map
from bot.app.context import Context
from bot.app.entries import log_entry
from bot.app.free_roll_dice import reveal as reveal_free_rolls
from bot.app.replies import Caller, Card, Refusal, Reply
from bot.app.sole_choice import asks_always, take_sole_choices
from bot.app.undo import Undo
from bot.render.cards import board_card, board_files
from bot.render.shown import shown
from bot.store.records import Campaign, Figure
from rules.battlefield import MapData, map_file
from rules.core import FigureSpec, short, to_data

IN_PROGRESS = "A game is already in progress here: see /game status, or /game end it."
PLACE_FIGURES = (
    'Place your figures in your side\'s deployment zone: /map place figure: at:"x,y" (inches from the '
    "lower-left corner), or /map deploy to set out all of them; /map show draws the table."
)


class GameCommands:
    def __init__(self, ctx: Context, actions: Actions, aftermath: Aftermath, undo: Undo) -> None:
        self.ctx = ctx
        self.actions = actions
        self.aftermath = aftermath
        self.undo = undo

    async def game_start(self, caller: Caller, chosen: str | None = None) -> Reply:
        """A battle with the roster figures able to fight (dead and resting ones stay home), or only
        the ones ``chosen`` names ("Rossi, Ada, Big Jim")."""
        async with map_checks.answer_later(), self.ctx.locks.of(caller):
            before, chosen_map = await self._battle_map(caller)
            async with self.ctx.store.transaction() as u:
                campaign = await campaign_of(u, caller)
                require_gm(campaign, caller, "start a game")
                if await u.games.in_progress(campaign.id, lock=True) is not None:
                    raise Refusal(IN_PROGRESS)
                engine = engine_of(campaign)
                figures, home = await self.aftermath.roster_split(u, campaign)
                if chosen:
                    figures = pick_figures(figures, chosen)
                specs = [engine.check_figure(FigureSpec(f.name, f.side, f.kind, dict(f.stats))) for f in figures]
                between = await reveal_free_rolls(u, campaign, self.ctx.clock())
                number = await battles_fought(u, campaign) + 1
                source = self.ctx.dice()
                stream = new_stream(source, campaign.id, number)
                dice = command_dice(source, stream)
                started: dict[str, Any] = {"start": [to_data(spec) for spec in specs]}
                where = None
                if on_map(campaign, engine):
                    if chosen_map is None or not same_battlefield(before, campaign):
                        raise Refusal("The campaign's map or house rules changed meanwhile: try again.")
                    field, where = chosen_map
                    outcome = engine.start_on_map(specs, dice, field)
                    started["map"] = map_file(field)
                else:
                    outcome = engine.start(specs, dice)
                outcome, taken = take_sole_choices(engine, outcome, dice, ask=asks_always(campaign.settings))
                if taken:
                    started["then"] = taken
                game = await u.games.create(
                    campaign.id,
                    number,
                    campaign.ruleset,
                    engine.dump_state(outcome.state),
                    started_stream(stream, dice),
                )
                entry = log_entry(
                    game,
                    1,
                    caller,
                    "/game start",
                    state_before=None,
                    by_gm=campaign.gm_id == caller.user_id,
                    side=None,
                    events=outcome.events,
                    rolled=dice.rolled,
                    action=started,
                )
                await u.play.append_action(entry)
                reply = await self.actions.answer(
                    u, campaign, engine, game, entry, caller, None, outcome, "Game on", None
                )
                if reply.cards:
                    if home:
                        reply.cards[0].fields.append(("Staying home", shown(", ".join(home)), False))
                    assert game.dice_commitment is not None
                    reply.cards[0].fields.append(
                        ("Provable dice", start_text(game.dice_commitment, game.dice_note), False)
                    )
                    if between is not None:
                        reply.cards[0].fields.append(("Free rolls revealed", between, False))
                if reply.content and reply.moves_of is None:  # the battle's first "your move", with no
                    # next moves to show: those end with the same pointer to /help
                    reply.content += f"\n/help topic:{campaign.ruleset} lists a turn's commands."
                board = engine.board(outcome.state)
                title = f"{campaign.name}: the table"
                if where is not None:
                    card = board_card(f"{campaign.name}: the battlefield", board)
                    card.description += f"\n{where}\n{PLACE_FIGURES}"
                    game_picture(reply, card, engine, game, outcome.state)
                elif not any(card.title == title for card in reply.cards):  # a grid board is drawn once, not twice
                    reply.cards.append(board_card(title, board))
                    reply.files = board_files(board)
        return reply

    async def _battle_map(self, caller: Caller) -> tuple[Campaign, tuple[MapData, str] | None]:
        """The campaign as it is before its battle starts, and the map the battle is fought on (None
        on a table), found outside the battle's transaction: a large drafted map is checked in the
        maps' worker, and no other command waits for that."""
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            require_gm(campaign, caller, "start a game")
            if await u.games.in_progress(campaign.id) is not None:
                raise Refusal(IN_PROGRESS)
        engine = engine_of(campaign)
        return campaign, (await battle_map(campaign, engine) if on_map(campaign, engine) else None)

    async def game_status(self, caller: Caller) -> Reply:
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            game = await u.games.in_progress(campaign.id) or await u.games.latest(campaign.id)
            if game is None:
                raise Refusal("No game has been played here yet: the game master starts one with /game start.")
            engine = engine_of(campaign)
            state = self.ctx.states.load(engine, game)
            board = engine.board(state)
            waiting = await u.decisions.open_in_game(game.id)
        card = board_card(f"{campaign.name} — battle {game.number}", board)
        if game.status == "active":
            card.fields.append(("Provable dice", status_text(game), False))
        if waiting:
            card.fields.append(("Waiting for", f"{waiting[0].decider}: {shown(waiting[0].prompt)}", False))
        reply = Reply(cards=[card], files=board_files(board))
        if game.status == "active" and not waiting:
            reply.offer_moves(campaign.ruleset, engine, state, engine.whose_turn(state), board)
        game_picture(reply, card, engine, game, state)
        return reply

    # /game log is ReportCommands.game_log (bot/app/reports.py): a page at a time, secret rolls kept back.

    async def game_undo(self, caller: Caller) -> Reply:
        """The last action taken back, or, when it rolled dice, asked of the other side (bot/app/undo.py)."""
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            await player_of(u, campaign, caller)
            game = await u.games.latest(campaign.id, lock=True)
            if game is None:
                raise Refusal("There is nothing to undo.")
            if game.status != "active" and game.winner is None:
                raise Refusal("That game was ended by the game master: it can no longer be changed.")
            if game.status != "active" and is_provable(game):
                raise Refusal(
                    f"Battle {game.number} is won and its dice secret is revealed: taking back its last action "
                    "would let everyone know the dice to come, so it stands."
                )
            return await self.undo.undo(u, campaign, game, caller)

    async def game_end(self, caller: Caller) -> Reply:
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            require_gm(campaign, caller, "end the game")
            game = await u.games.in_progress(campaign.id, lock=True)
            if game is None:
                raise Refusal("No game is in progress.")
            game = await u.games.set_outcome(game, status="ended", winner=game.winner, ended_at=self.ctx.clock())
            await u.decisions.cancel_open(game_id=game.id)
            engine = engine_of(campaign)
            closed = await self.aftermath.close_battle(u, campaign, game, engine, engine.load_state(game.state))
        ended = Card(title="Game ended", description=f"Battle {game.number} is over; its log is kept.")
        return Reply(cards=[ended, *closed.cards], events=closed.events, rolls=closed.rolls)


def same_battlefield(before: Campaign, now: Campaign) -> bool:
    """Whether ``now`` fights on the map ``before`` would: same campaign, draft and house rules."""
    return (
        now.id == before.id
        and now.house_rules == before.house_rules
        and (now.settings or {}).get(MAP_DRAFT) == (before.settings or {}).get(MAP_DRAFT)
    )


def pick_figures(available: Sequence[Figure], chosen: str) -> list[Figure]:
    """The figures ``chosen`` names (comma-separated), each one able to fight; a name given twice
    counts once."""
    by_name = {f.name.casefold(): f for f in available}
    picked: dict[str, Figure] = {}
    missing: dict[str, str] = {}
    for name in (" ".join(n.split()) for n in chosen.split(",")):
        if not name:
            continue
        figure = by_name.get(name.casefold())
        if figure is not None:
            picked.setdefault(figure.name, figure)
        else:
            missing.setdefault(name.casefold(), name)
    if missing:
        names = ", ".join(short(m) for m in missing.values())
        raise Refusal(f"Not able to fight now (unknown, dead or resting): {names}.")
    if not picked:
        raise Refusal("Name the figures that fight, separated by commas.")
    return list(picked.values())
