"""/roster: the figures each player brings to the campaign."""

from __future__ import annotations

from bot.app.access import campaign_of, check_side, engine_of, figure_names_in, figure_of, player_of
from bot.app.context import Context
from bot.app.inputs import clean_name, format_stats, parse_stats, refuse_look_alike
from bot.app.replies import Caller, Card, Refusal, Reply
from bot.dice import RecordingDice
from bot.render.cards import roll_line
from bot.render.shown import shown, side_colour
from rules.core import FigureSpec, short


class RosterCommands:
    """A campaign's rosters: figures recruited by the ruleset's rules, listed, shown and removed."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def roster_add(
        self, caller: Caller, name: str, kind: str, side: str | None = None, stats: str | None = None
    ) -> Reply:
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            member = await player_of(u, campaign, caller)
            engine = engine_of(campaign)
            name = clean_name(name, engine.roster_entry)
            is_gm = campaign.gm_id == caller.user_id
            if side is None:
                if member.side is None:
                    raise Refusal("Say which side the figure fights for (side option), or join a side first.")
                side = member.side
            side = check_side(engine, side)
            if not is_gm and side != member.side:
                raise Refusal(f"You play {member.side}: only the game master may add figures to {side}.")
            dice = RecordingDice(self.ctx.dice())
            recruited = engine.recruit(
                FigureSpec(name=name, side=side, kind=kind or "", stats=parse_stats(stats)), dice
            )
            spec = recruited.state
            clash = await u.figures.named(campaign.id, name)
            if clash is not None:
                raise Refusal(f"There is already a figure called {short(clash.name)} in this campaign.")
            refuse_look_alike(name, await u.figures.names(campaign.id), engine.roster_entry)
            await u.figures.add(
                campaign.id,
                owner_id=caller.user_id,
                name=spec.name,
                side=spec.side,
                kind=spec.kind,
                stats=dict(spec.stats),
            )
        detail = f"{spec.kind}" + (f" · {format_stats(spec.stats)}" if spec.stats else "")
        text = "\n".join(
            [f"**{shown(spec.name)}** ({shown(spec.side)}) — {shown(detail)}"]
            + [shown(e.text) for e in recruited.events]
        )
        card = Card(title="Recruited", description=text, colour=side_colour(spec.side))
        if dice.rolled:
            card.fields.append(("Dice", "\n".join(roll_line(r) for r in dice.rolled), False))
        return Reply(cards=[card], events=list(recruited.events), rolls=list(dice.rolled))

    async def roster_list(self, caller: Caller, side: str | None = None) -> Reply:
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            figures = await u.figures.all(campaign.id, by_side=True)
        if side:
            figures = [f for f in figures if f.side.casefold() == side.strip().casefold()]
        card = Card(title=f"Rosters: {shown(campaign.name)}")
        by_side: dict[str, list[str]] = {}
        for f in figures:
            by_side.setdefault(f.side, []).append(
                shown(f"{f.name} — {f.kind}" + ("" if f.status == "active" else f" ({f.status})"))
            )
        if not by_side:
            card.description = "No figures yet: add them with /roster add."
        for name, lines in by_side.items():
            card.fields.append((f"{shown(name.title())} ({len(lines)})", "\n".join(lines), False))
        return Reply(cards=[card], ephemeral=True)

    async def roster_show(self, caller: Caller, name: str) -> Reply:
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            figure = await figure_of(u, campaign, name)
            owner = await u.members.of(campaign.id, figure.owner_id)
        card = Card(title=shown(figure.name), colour=side_colour(figure.side))
        card.fields += [
            ("Side", shown(figure.side), True),
            ("Type", shown(figure.kind), True),
            ("Status", shown(figure.status), True),
        ]
        if figure.stats:
            card.fields.append(("Stats", shown(format_stats(figure.stats)), False))
        profile = engine_of(campaign).profile(FigureSpec(figure.name, figure.side, figure.kind, dict(figure.stats)))
        if profile:
            card.fields.append(("Profile", shown(profile), False))
        card.fields.append(("Owner", shown(owner.display_name) if owner else "—", True))
        history = figure.history or []
        lines = [shown(history_line(h)) for h in history[-10:]]
        card.fields.append(("History", "\n".join(lines) or "No battles yet.", False))
        return Reply(cards=[card], ephemeral=True)

    async def roster_remove(self, caller: Caller, name: str) -> Reply:
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            await player_of(u, campaign, caller)
            figure = await figure_of(u, campaign, name)
            if figure.owner_id != caller.user_id and campaign.gm_id != caller.user_id:
                raise Refusal(f"{short(figure.name)} is not yours: only its owner or the game master may remove it.")
            game = await u.games.in_progress(campaign.id)
            if game is not None and figure.name in figure_names_in(self.ctx.states, campaign, game):
                raise Refusal(f"{short(figure.name)} is in the game in progress: remove it after /game end.")
            await u.figures.remove(figure.id)
        return Reply(
            cards=[
                Card(
                    title="Removed from the roster",
                    description=shown(f"{figure.name} ({figure.side}) has left the roster."),
                )
            ]
        )


def history_line(entry: object) -> str:
    """One entry of a figure's history as a player reads it: "Battle 1: fought; wounds heal (2025-05-01)".

    Entries come from the bot's after-battle rules (battle, note, date, games_out) or from an imported
    file (any mapping, or text); keys other than those are shown as ``key: value``."""
    if not isinstance(entry, dict):
        return str(entry)
    rest = {k: v for k, v in entry.items() if k not in ("battle", "note", "date", "games_out")}
    note = entry.get("note")
    text = f"Battle {entry['battle']}" if entry.get("battle") is not None else ""
    if text and str(note).startswith(text + ":"):  # a note that names its battle already ("Battle 1: fought")
        text = ""
    parts = [str(note)] if note not in (None, "") else []
    parts += [f"{k}: {v}" for k, v in rest.items()]
    if parts:
        text = f"{text}: {'; '.join(parts)}" if text else "; ".join(parts)
    if entry.get("date"):
        text = f"{text} ({entry['date']})" if text else str(entry["date"])
    return text or "—"
