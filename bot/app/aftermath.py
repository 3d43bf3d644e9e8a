"""After a battle: the ruleset's consequences carried into the rosters, each figure's history, and a
post-battle card per side. Undoing the battle's last action takes the consequences back too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.app.battle_dice import command_dice, end_text, progress, stream_of
from bot.app.context import Context
from bot.app.entries import log_entry
from bot.app.replies import Caller, Card, Reply
from bot.app.yaml_format import plural
from bot.render.shown import shown, side_colour
from bot.store import Unit
from bot.store.records import Campaign, Figure, Game
from rules.core import Aftermath as AftermathResult
from rules.core import Engine, Event, FigureSpec, from_data

AFTERMATH_COMMAND = "(after the battle)"


class Aftermath:
    """The rules between battles, applied to the rosters when a battle closes (and taken back)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def close_battle(self, u: Unit, campaign: Campaign, game: Game, engine: Engine[Any], state: Any) -> Reply:
        """Apply the battle's consequences to the rosters (once): the post-battle cards, events and dice."""
        first = await u.log.first(game.id)
        started = first.action if first is not None and first.action else {}
        specs = [from_data(FigureSpec, spec) for spec in started.get("start", [])]
        dice = command_dice(self.ctx.dice(), stream_of(game))
        settings = dict(campaign.settings or {})
        outcome = engine.aftermath(state, specs, dice, settings, battle=game.number)
        results, events = list(outcome.state), list(outcome.events)
        figures = {f.name: f for f in await u.figures.all(campaign.id)}
        today = self.ctx.clock().date().isoformat()
        before = []
        for result in results:
            figure = figures.get(result.name)
            if figure is None:
                continue  # removed from the roster during the battle: nothing to carry
            before.append(
                {"name": figure.name, "status": figure.status, "stats": figure.stats, "history": len(figure.history)}
            )
            entry: dict[str, Any] = {"battle": game.number, "note": result.note, "date": today}
            if result.status == "resting":
                entry["games_out"] = result.games_out
            stats = dict(result.stats) if result.stats is not None else figure.stats
            await u.figures.save(replace(figure, history=[*figure.history, entry], status=result.status, stats=stats))
        caller = Caller(campaign.gm_id, "the rules", campaign.guild_id, campaign.channel_id, None)
        await u.play.append_action(
            log_entry(
                game,
                await u.log.next_seq(game.id),
                caller,
                AFTERMATH_COMMAND,
                state_before=None,
                by_gm=True,
                side=None,
                events=events,
                rolled=dice.rolled,
                action={"aftermath": before},
            )
        )
        await self.roster_split(u, campaign)  # who has now served his missed games is active again
        game = await u.play.save_dice(game, **progress(dice))
        cards = [
            *post_battle_cards(results, events),
            Card(title=f"Dice of battle {game.number}", description=end_text(game)),
        ]
        return Reply(cards=cards, events=events, rolls=list(dice.rolled))

    async def revert_battle(self, u: Unit, campaign: Campaign, game: Game) -> bool:
        """Undo the consequences a battle left on the rosters; True if there were any."""
        found = await u.log.with_command(game.id, AFTERMATH_COMMAND)
        if not found:
            return False
        record = found[0]
        figures = {f.name: f for f in await u.figures.all(campaign.id)}
        for saved in (record.action or {}).get("aftermath", []):
            figure = figures.get(saved["name"])
            if figure is not None:
                history = list(figure.history)[: saved["history"]]
                await u.figures.save(replace(figure, status=saved["status"], stats=saved["stats"], history=history))
        await u.log.mark_undone(record.id)
        return True

    async def roster_split(self, u: Unit, campaign: Campaign) -> tuple[list[Figure], list[str]]:
        """Who may fight now, and who stays home and why ("Leroux (resting: 2 more battles)").
        A figure that has served its missed battles is made active again on the way."""
        battles = await u.games.numbers(campaign.id)
        ready, home = [], []
        for figure in await u.figures.all(campaign.id):
            if figure.status == "dead":
                home.append(f"{figure.name} (dead)")
                continue
            if figure.status == "resting":
                last = resting_since(figure.history)
                left = last[1] - sum(1 for b in battles if b > last[0]) if last is not None else 0
                if left > 0:
                    home.append(f"{figure.name} (resting: {plural(left, 'more battle')})")
                    continue
                figure = replace(figure, status="active")
                await u.figures.save(figure)
            ready.append(figure)
        return ready, home


def resting_since(history: Sequence[Any]) -> tuple[int, int] | None:
    """The battle of the newest wound that keeps a figure out, and how many battles it does
    (entries that say otherwise, as an old file might, are passed over)."""
    for entry in reversed(history):
        if isinstance(entry, Mapping) and "games_out" in entry:
            battle, out = entry.get("battle"), entry["games_out"]
            if isinstance(battle, int) and isinstance(out, int) and not isinstance(out, bool):
                return battle, out
    return None


def post_battle_cards(results: Sequence[AftermathResult], events: Sequence[Event]) -> list[Card]:
    by_side: dict[str, list[str]] = {}
    for result in results:
        mark = {"dead": "☠ ", "resting": "🛌 "}.get(result.status, "")
        by_side.setdefault(result.side, []).append(f"{mark}**{shown(result.name)}** — {shown(result.note)}")
    cards = [
        Card(title=f"After the battle: {side.title()}", description="\n".join(lines), colour=side_colour(side))
        for side, lines in by_side.items()
    ]
    # Each roll goes on the card of the side whose figure it is about (else the first card), unless
    # that card's line for the figure says it already (Sharpe's fate roll is the figure's note).
    side_of = {result.name: result.side for result in results}
    noted = {(result.name, result.note) for result in results}
    order = list(by_side)
    rolled: dict[int, list[str]] = {}
    for event in events:
        figure = str(event.data.get("figure"))
        if (figure, event.text) in noted:
            continue
        side = side_of.get(figure)
        rolled.setdefault(order.index(side) if side in order else 0, []).append(event.text)
    for index, lines in sorted(rolled.items()):
        if index < len(cards):
            cards[index].fields.append(("Rolled after the battle", "\n".join(lines), False))
    return cards
