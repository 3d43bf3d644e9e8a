"""/map: the map the next battle is fought on, drafted by the game master between battles (a
shipped scenario, an empty table with features added one by one, or an imported file; kept as
:mod:`bot.app.battlefield` says), and the battle's map while one is fought.

During a battle ``/map show`` draws the game's own map with its figures, and ``/map place`` and
``/map deploy`` are the ruleset's actions ``place`` and ``deploy``: logged, undoable and replayed
like any other (:meth:`bot.app.actions.Actions.act`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from types import SimpleNamespace
from typing import Any

from bot.app import map_checks
from bot.app.access import campaign_of, engine_of, require_gm
from bot.app.actions import Actions
from bot.app.battlefield import (
    CHANGE_BETWEEN_BATTLES,
    MAP_DRAFT,
    ON_A_TABLE,
    battlefield_of,
    draft_key,
    draft_view,
    game_key,
    not_on_map,
    order_picture,
)
from bot.app.context import Context
from bot.app.entries import command_line
from bot.app.map_work import (
    Change,
    CheckedMap,
    Problems,
    add_feature,
    corners,
    empty_map,
    feature_label,
    remove_feature,
    scenario_map,
    set_zone,
)
from bot.app.replies import Caller, Card, Refusal, Reply
from bot.app.yaml_format import FileProblems, FileRefused, file_slug
from bot.render.shown import shown, side_colour
from bot.store import Unit
from bot.store.column_values import written_as
from bot.store.records import Campaign
from rules import RULESETS
from rules.battlefield import KINDS, LINE_KINDS, MapData, parse_path
from rules.core import Engine, RuleError, short

#: An empty table's size, in inches.
TABLE_MIN, TABLE_MAX = 12.0, 120.0
CHOICES_MAX = 25


# --- /map ----------------------------------------------------------------------------------------


class MapCommands:
    """The map a campaign's next battle is fought on, and its battle's map while one is fought."""

    def __init__(self, ctx: Context, actions: Actions) -> None:
        self.ctx = ctx
        self.actions = actions

    # --- the draft, between battles

    async def _edit(
        self, caller: Caller, change: Change, *, fresh: bool = False
    ) -> tuple[Campaign, Engine[Any], CheckedMap, str]:
        """One change of the draft by the game master between battles: ``change`` builds the new map
        from the draft (none when ``fresh``: a new map replaces whatever was there), refusing what it
        must; the map is then held to every rule of a map file and kept, with a sentence saying what
        changed. The reading and checking run outside the transaction (a large map in the maps'
        worker), under the channel's lock; the campaign is read again to keep the result, and a
        draft or house rules changed meanwhile (by another process) refuse it."""
        async with map_checks.answer_later(), self.ctx.locks.of(caller):
            async with self.ctx.store.transaction() as u:
                before = await self._editable(u, caller)
            current = None if fresh else (before.settings or {}).get(MAP_DRAFT)
            found, lead = await map_checks.edited(
                before.ruleset, before.house_rules, current, change, group=map_checks.group_of(before.id)
            )
            return await self._keep_checked(caller, before, found, lead)

    async def _editable(self, u: Unit, caller: Caller) -> Campaign:
        """The caller's campaign, when its game master may change its draft now."""
        campaign = await campaign_of(u, caller)
        require_gm(campaign, caller, "change the map")
        self._engine_on_map(campaign)
        if await u.games.in_progress(campaign.id) is not None:
            raise Refusal(CHANGE_BETWEEN_BATTLES + " Try again after the battle.")
        return campaign

    async def _keep_checked(
        self, caller: Caller, before: Campaign, found: CheckedMap, lead: str
    ) -> tuple[Campaign, Engine[Any], CheckedMap, str]:
        """``found`` kept as the draft of the campaign read as ``before``, unless it changed since."""
        async with self.ctx.store.transaction() as u:
            campaign = await self._editable(u, caller)
            campaign = await u.campaigns.get(campaign.id, lock=True)  # settings are shared with other commands
            settings = dict(campaign.settings or {})
            if (
                campaign.id != before.id
                or campaign.house_rules != before.house_rules
                or settings.get(MAP_DRAFT) != (before.settings or {}).get(MAP_DRAFT)
            ):
                raise Refusal("The map or the house rules changed meanwhile: try again.")
            settings[MAP_DRAFT] = written_as(found.file, found.text)
            await u.campaigns.set_settings(campaign.id, settings)
        return replace(campaign, settings=settings), self._engine_on_map(campaign), found, lead

    @staticmethod
    def _engine_on_map(campaign: Campaign) -> Engine[Any]:
        engine = engine_of(campaign)
        if not engine.plays_on_map:
            raise Refusal(not_on_map(engine))
        if battlefield_of(campaign) != "map":
            raise Refusal(
                "This campaign plays on a table: the game master switches with /campaign battlefield mode:map."
            )
        return engine

    async def map_new(
        self, caller: Caller, scenario: str | None = None, width: float | None = None, height: float | None = None
    ) -> Reply:
        """A shipped map by name, or an empty table ``width`` by ``height`` inches with a strip along
        two opposite edges for the sides' deployment."""
        if scenario and (width is not None or height is not None):
            raise Refusal("Give a scenario or a table's width and height, not both.")
        if not scenario and (width is None or height is None):
            raise Refusal("Give a scenario (a shipped map), or width and height for an empty table.")
        if scenario:
            change: Change = partial(scenario_map, scenario)
        else:
            assert width is not None and height is not None
            change = partial(empty_map, table_inches(width, "width"), table_inches(height, "height"))
        campaign, engine, draft, _ = await self._edit(caller, change, fresh=True)
        return self._draft_reply(campaign, engine, draft, "New map")

    async def feature_add(
        self,
        caller: Caller,
        kind: str,
        points: str,
        name: str | None = None,
        thickness: float | None = None,
    ) -> Reply:
        """A terrain feature on the draft: a line (a wall, a hedge …) or an area (a wood …)."""
        wanted = " ".join(str(kind or "").split()).casefold()
        if wanted not in KINDS:
            raise Refusal(f"{short(str(kind))} is not a kind of terrain: use {', '.join(KINDS)}.")
        shape = "line" if wanted in LINE_KINDS else "area"
        if thickness is not None and shape == "area":
            raise Refusal(f"Only a line ({', '.join(LINE_KINDS)}) has a thickness; a {wanted} is an area.")
        if thickness is not None and not (isinstance(thickness, (int, float)) and 0.01 <= thickness <= 12):
            raise Refusal("A line's thickness is from 0.01 to 12 inches.")
        try:
            path = parse_path(points, f"the {wanted}'s points")
        except RuleError as exc:
            raise Refusal(exc.message) from None
        raw: dict[str, Any] = {"kind": wanted, shape: [[p.x, p.y] for p in path]}
        if name and name.strip():
            raw["name"] = " ".join(name.split())
        if thickness is not None:
            raw["thickness"] = float(thickness)
        campaign, engine, draft, lead = await self._edit(caller, partial(add_feature, raw))
        return self._draft_reply(campaign, engine, draft, "Feature added", lead)

    async def feature_remove(self, caller: Caller, feature: str) -> Reply:
        """A feature off the draft, by its number in the list or its name."""
        campaign, engine, draft, lead = await self._edit(caller, partial(remove_feature, feature))
        return self._draft_reply(campaign, engine, draft, "Feature removed", lead)

    async def zone_set(self, caller: Caller, side: str, points: str) -> Reply:
        """A side's deployment zone on the draft, as the corners of a polygon."""
        try:
            path = parse_path(points, "the zone's corners")
        except RuleError as exc:
            raise Refusal(exc.message) from None
        corners = [[p.x, p.y] for p in path]
        campaign, engine, draft, lead = await self._edit(caller, partial(set_zone, side, corners))
        return self._draft_reply(campaign, engine, draft, "Deployment zone set", lead)

    async def map_import(self, caller: Caller, filename: str, data: bytes) -> Reply:
        """A map file (from /map export, or written by hand) as the draft; every problem at once.
        The file is read and checked outside any transaction (a large one in the maps' worker)."""
        async with map_checks.answer_later(), self.ctx.locks.of(caller):
            async with self.ctx.store.transaction() as u:
                before = await self._editable(u, caller)
            found = await map_checks.imported(
                before.ruleset, before.house_rules, data, group=map_checks.group_of(before.id)
            )
            if isinstance(found, Problems):
                raise FileRefused(FileProblems(found.problems), filename, "the map was not changed")
            campaign, engine, draft, _ = await self._keep_checked(caller, before, found, "")
        return self._draft_reply(campaign, engine, draft, "Map imported", f"From {short(filename)}.\n")

    async def map_export(self, caller: Caller) -> Reply:
        """The map as a YAML file: the battle's during one, else the draft."""
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            engine = self._engine_on_map(campaign)
            game = await u.games.in_progress(campaign.id)
            field = engine.field_of(self.ctx.states.load(engine, game)) if game is not None else None
        if field is not None:
            the_map = field.map
        else:
            kept = (campaign.settings or {}).get(MAP_DRAFT)
            if kept is None:
                raise Refusal("There is no map yet: the game master starts one with /map new.")
            the_map = (
                await map_checks.draft(
                    campaign.ruleset, campaign.house_rules, kept, group=map_checks.group_of(campaign.id)
                )
            ).map
        filename = f"map-{file_slug(the_map.name)}.yaml"
        header = [
            f"Skirmish GM map: {the_map.name} ({RULESETS[campaign.ruleset][1]}).",
            "Bring it back with /map import (the game master, between battles).",
        ]
        text = f"**{filename}**: {the_map.width:g} by {the_map.height:g} inches, {len(the_map.features)} features."
        return Reply(
            cards=[Card(title="Map exported", description=text)],
            ephemeral=True,
            files=[(filename, await map_checks.exported(the_map, header, group=map_checks.group_of(campaign.id)))],
        )

    # --- the map of a battle, or the draft

    async def map_show(self, caller: Caller, focus: str | None = None) -> Reply:
        """The battle's map with its figures (``focus``: one figure's reach and sight), or the draft."""
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            engine = self._engine_on_map(campaign)
            game = await u.games.in_progress(campaign.id)
            state = self.ctx.states.load(engine, game) if game is not None else None
        if game is not None:
            try:
                view = engine.field_view(state, focus.strip() if focus and focus.strip() else None)
            except RuleError as exc:
                raise Refusal(exc.message) from None
            if view is None:
                raise Refusal(ON_A_TABLE)
            card = Card(
                title=shown(f"{campaign.name} — battle {game.number}: {view.field.map.name}"), colour=side_colour(None)
            )
            card.description = self._size(view.field.map)
            reply = Reply(cards=[card])
            order_picture(reply, card, game_key(game, focus), view, engine.terrain())
            return reply
        if focus:
            raise Refusal("focus: shows a figure during a battle; no battle is in progress.")
        kept = (campaign.settings or {}).get(MAP_DRAFT)
        if kept is None:
            raise Refusal("There is no map yet: the game master starts one with /map new.")
        draft = await map_checks.draft(
            campaign.ruleset, campaign.house_rules, kept, group=map_checks.group_of(campaign.id)
        )
        return self._draft_reply(campaign, engine, draft, f"{shown(campaign.name)}: the next battle's map")

    # --- deployment: the ruleset's actions

    async def place(
        self, caller: Caller, figure: str, at: str, facing: str | None = None, formation: str | None = None
    ) -> Reply:
        """One figure (in NSR a unit, with its ``facing`` and ``formation`` if given) set down in its
        side's zone; the ruleset's ``place`` action says what it takes and refuses the rest."""
        given = {"facing": facing, "formation": formation}
        params = {"figure": figure, "at": at, **{k: v for k, v in given.items() if v is not None}}
        return await self.actions.act(caller, None, "place", params, command_line("map", "place", params))

    async def deploy(self, caller: Caller, side: str | None = None) -> Reply:
        params = {"side": side} if side else {}
        return await self.actions.act(caller, None, "deploy", params, command_line("map", "deploy", params))

    # --- autocomplete

    async def scenario_names(self, caller: Caller, current: str) -> list[str]:
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
        typed = current.strip().casefold()
        return [n for n in engine_of(campaign).scenarios() if typed in n.casefold()][:CHOICES_MAX]

    async def feature_names(self, caller: Caller, current: str) -> list[tuple[str, str]]:
        """The draft's features as (label, value): ``3. the farmhouse (building)`` and ``3``, read
        from the kept draft as it is (checking a large one is not worth a keystroke's wait)."""
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
        if not engine_of(campaign).plays_on_map:
            return []
        kept = (campaign.settings or {}).get(MAP_DRAFT)
        features = kept.get("features") if isinstance(kept, dict) else None
        if not isinstance(features, list):
            return []
        typed = current.strip().casefold()
        found = []
        for number, feature in enumerate(features, 1):
            if not isinstance(feature, dict):
                continue
            label = f"{number}. {feature_label(SimpleNamespace(name=feature.get('name'), kind=feature.get('kind')))}"
            if typed in label.casefold():
                found.append((label, str(number)))
        return found[:CHOICES_MAX]

    # --- cards

    def _draft_reply(
        self, campaign: Campaign, engine: Engine[Any], draft: CheckedMap, title: str, lead: str = ""
    ) -> Reply:
        """The draft's card, ``lead`` first, with its picture ordered."""
        card = self._draft_card(campaign, draft.map, title)
        card.description = lead + card.description
        reply = Reply(cards=[card])
        order_picture(reply, card, draft_key(campaign, draft), draft_view(engine, draft.map), engine.terrain())
        return reply

    def _draft_card(self, campaign: Campaign, draft: MapData, title: str) -> Card:
        card = Card(title=title, description=self._size(draft), colour=side_colour(None))
        if draft.description:
            card.description += "\n" + draft.description[:500]
        listed = [shown(f"{n}. {feature_label(f)}") for n, f in enumerate(draft.features, 1)]
        card.fields.append((f"Features ({len(listed)})", cut_lines(listed) or "none yet", False))
        zones = [f"{side}: {corners(points)}" for side, points in draft.zones.items()]
        card.fields.append(("Deployment zones", cut_lines(zones) or "none", False))
        card.footer = "Game master: /map feature add|remove, /map zone, /map import; /game start fights on it."
        return card

    @staticmethod
    def _size(the_map: MapData) -> str:
        return f"**{shown(the_map.name)}**: a table {the_map.width:g} by {the_map.height:g} inches."


# --- helpers -----------------------------------------------------------------------------------


def table_inches(value: float, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise Refusal(f"The table's {what} is a number of inches.")
    if not TABLE_MIN <= value <= TABLE_MAX:
        raise Refusal(f"The table's {what} is from {TABLE_MIN:g} to {TABLE_MAX:g} inches, not {value:g}.")
    return float(value)


def cut_lines(lines: Sequence[str], limit: int = 1000) -> str:
    """Lines joined, cut (with a count of the rest) to fit a card's field."""
    out: list[str] = []
    used = 0
    for n, line in enumerate(lines):
        if used + len(line) + 1 > limit - 20:
            out.append(f"… and {len(lines) - n} more")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)
