"""After a battle: the ruleset's consequences carried into the rosters, each figure's history, and a
post-battle card per side. Undoing the battle's last action takes the consequences back too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app.base import AppBase
from bot.app.replies import Card, Reply, side_colour
from bot.app.yaml_format import plural
from bot.dice import RecordingDice, RolledDie
from bot.store.schema import ActionRecord, Campaign, Figure, Game
from bot.store.tx import SessionTx
from rules.core import Aftermath, Engine, Event, FigureSpec, Outcome, from_data

AFTERMATH_COMMAND = "(after the battle)"


def default_aftermath(engine: Engine[Any], state: Any, battle: int) -> list[Aftermath]:
    """Without rules between games: who fell is noted, and everyone fights again."""
    return [
        Aftermath(line.name, line.side, "active", f"Battle {battle}: " + ("out of the fight" if line.out else "fought"))
        for line in engine.board(state).figures
    ]


class AftermathCommands(AppBase):
    async def _close_battle(
        self, s: AsyncSession, campaign: Campaign, game: Game, engine: Engine[Any], state: Any
    ) -> Reply:
        """Apply the battle's consequences to the rosters (once): the post-battle cards, events and dice."""
        records = list(
            await s.scalars(select(ActionRecord).where(ActionRecord.game_id == game.id, ActionRecord.seq == 1))
        )
        specs = [
            from_data(FigureSpec, spec)
            for r in records
            if r.action and "start" in r.action
            for spec in r.action["start"]
        ]
        dice = RecordingDice(self._dice())
        hook = getattr(engine, "aftermath", None)
        if hook is not None:
            outcome: Outcome[list[Aftermath]] = hook(state, specs, dice, dict(campaign.settings or {}))
            results, events = list(outcome.state), list(outcome.events)
        else:
            results, events = default_aftermath(engine, state, game.number), []
        figures = {f.name: f for f in await s.scalars(select(Figure).where(Figure.campaign_id == campaign.id))}
        before = []
        for result in results:
            figure = figures.get(result.name)
            if figure is None:
                continue  # removed from the roster during the battle: nothing to carry
            before.append(
                {
                    "name": figure.name,
                    "status": figure.status,
                    "stats": figure.stats,
                    "history": len(figure.history or []),
                }
            )
            entry = {"battle": game.number, "note": result.note, "date": datetime.now(UTC).date().isoformat()}
            if result.status == "resting":
                entry["games_out"] = result.games_out
            figure.history = [*(figure.history or []), entry]
            figure.status = result.status
            if result.stats is not None:
                figure.stats = dict(result.stats)
        tx = SessionTx(s)
        await self._write(
            tx,
            self._record(
                game,
                await self._next_seq(tx, game),
                _system_caller(campaign),
                AFTERMATH_COMMAND,
                None,
                True,
                None,
                events,
                dice.rolled,
                {"aftermath": before},
            ),
        )
        await self._available_figures(s, campaign)  # who has now served his missed games is active again
        return Reply(
            cards=post_battle_cards(results, events),
            events=events,
            rolls=[RolledDie(r.kind, r.sides, r.value, r.reason) for r in dice.rolled],
        )

    async def _revert_battle(self, s: AsyncSession, campaign: Campaign, game: Game) -> bool:
        """Undo the consequences a battle left on the rosters; True if there were any."""
        record = await s.scalar(
            select(ActionRecord).where(
                ActionRecord.game_id == game.id,
                ActionRecord.command == AFTERMATH_COMMAND,
                ActionRecord.undone.is_(False),
            )
        )
        if record is None:
            return False
        figures = {f.name: f for f in await s.scalars(select(Figure).where(Figure.campaign_id == campaign.id))}
        for saved in record.action.get("aftermath", []):
            figure = figures.get(saved["name"])
            if figure is not None:
                figure.status, figure.stats = saved["status"], saved["stats"]
                figure.history = list(figure.history or [])[: saved["history"]]
        record.undone = True
        return True

    async def _available_figures(self, s: AsyncSession, campaign: Campaign) -> list[Figure]:
        """The roster figures that may fight now: not dead, and not still resting from a wound."""
        return (await self._roster_split(s, campaign))[0]

    async def _roster_split(self, s: AsyncSession, campaign: Campaign) -> tuple[list[Figure], list[str]]:
        """Who may fight now, and who stays home and why ("Leroux (resting: 2 more battles)").
        A figure that has served its missed battles is made active again on the way."""
        figures = list(await s.scalars(select(Figure).where(Figure.campaign_id == campaign.id).order_by(Figure.id)))
        battles = list(await s.scalars(select(Game.number).where(Game.campaign_id == campaign.id)))
        ready, home = [], []
        for figure in figures:
            if figure.status == "dead":
                home.append(f"{figure.name} (dead)")
                continue
            if figure.status == "resting":
                last = resting_since(figure.history or [])
                left = last[1] - sum(1 for b in battles if b > last[0]) if last is not None else 0
                if left > 0:
                    home.append(f"{figure.name} (resting: {plural(left, 'more battle')})")
                    continue
                figure.status = "active"
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


def post_battle_cards(results: Sequence[Aftermath], events: Sequence[Event]) -> list[Card]:
    by_side: dict[str, list[str]] = {}
    for result in results:
        mark = {"dead": "☠ ", "resting": "🛌 "}.get(result.status, "")
        by_side.setdefault(result.side, []).append(f"{mark}**{result.name}** — {result.note}")
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


def _system_caller(campaign: Campaign):  # type: ignore[no-untyped-def]
    from bot.app.replies import Caller

    return Caller(campaign.gm_id, "the rules", campaign.guild_id, campaign.channel_id, None)
