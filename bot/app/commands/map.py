"""/map: the battlefield's map: drafted between battles, shown, and the figures placed on it."""

from __future__ import annotations

from dataclasses import dataclass

from bot.app.commands.declared import Command, Upload
from bot.app.replies import Caller, Reply
from bot.app.service import App
from rules.battlefield import KINDS, LINE_KINDS
from rules.battlefield.deployment import DeployOptions, PlaceOptions
from rules.specs import Kind, NoParams, Params, option

GROUP = "The battlefield's map"
#: The subgroups' sentences (a subgroup's description on Discord).
SUBGROUPS = {"feature": "The terrain on the next battle's map"}


@dataclass(frozen=True, kw_only=True)
class NewOptions(Params):
    scenario: str | None = option("A shipped map, by name", length=60)
    width: float | None = option(
        "An empty table's width in inches (with height, instead of a scenario)", Kind.NUMBER, lowest=12.0, highest=120.0
    )
    height: float | None = option("An empty table's height in inches", Kind.NUMBER, lowest=12.0, highest=120.0)


@dataclass(frozen=True, kw_only=True)
class FeatureAddOptions(Params):
    kind: str = option(
        "Its kind of terrain: a wall, hedge, fence or barricade is a line; the rest are areas",
        required=True,
        length=20,
        example="wood",
    )
    points: str = option(
        'Its corners (an area) or its path (a line): "x,y x,y ..." in inches, like "4,4 10,4 10,9"',
        Kind.PATH,
        required=True,
        length=600,
        example='"4,4 10,4 10,9"',
    )
    name: str | None = option("A name to show and to remove it by (optional)", length=60)
    thickness: float | None = option(
        "A line's thickness in inches (default: the kind's)", Kind.NUMBER, lowest=0.01, highest=12.0
    )


@dataclass(frozen=True, kw_only=True)
class FeatureRemoveOptions(Params):
    feature: str = option("Its number in the map's list, or its name", required=True, length=100, example="3")


@dataclass(frozen=True, kw_only=True)
class ZoneOptions(Params):
    side: str = option("The side", Kind.SIDE, required=True, length=32)
    points: str = option(
        'The zone\'s corners: "x,y x,y x,y ..." in inches',
        Kind.PATH,
        required=True,
        length=600,
        example='"0,0 36,0 36,4"',
    )


@dataclass(frozen=True, kw_only=True)
class FileOptions(Params):
    file: Upload = option(  # noqa: RUF009 (a field, not a default)
        "A map file (from /map export, or written by hand)", Kind.FILE, required=True, example="farm.yaml"
    )


@dataclass(frozen=True, kw_only=True)
class ShowOptions(Params):
    focus: str | None = option("A figure whose movement, weapon ranges and sight to show", Kind.FIGURE)


async def _new(app: App, caller: Caller, p: NewOptions) -> Reply:
    return await app.maps.map_new(caller, p.scenario, p.width, p.height)


async def _feature_add(app: App, caller: Caller, p: FeatureAddOptions) -> Reply:
    return await app.maps.feature_add(caller, p.kind, p.points, p.name, p.thickness)


async def _feature_remove(app: App, caller: Caller, p: FeatureRemoveOptions) -> Reply:
    return await app.maps.feature_remove(caller, p.feature)


async def _zone(app: App, caller: Caller, p: ZoneOptions) -> Reply:
    return await app.maps.zone_set(caller, p.side, p.points)


async def _import(app: App, caller: Caller, p: FileOptions) -> Reply:
    return await app.maps.map_import(caller, p.file.filename, p.file.data)


async def _export(app: App, caller: Caller, p: NoParams) -> Reply:
    return await app.maps.map_export(caller)


async def _show(app: App, caller: Caller, p: ShowOptions) -> Reply:
    return await app.maps.map_show(caller, p.focus)


async def _place(app: App, caller: Caller, p: PlaceOptions) -> Reply:
    return await app.maps.place(caller, p.figure, p.at, p.facing, p.formation)


async def _deploy(app: App, caller: Caller, p: DeployOptions) -> Reply:
    return await app.maps.deploy(caller, p.side)


async def complete_scenario(app: App, caller: Caller, typed: str) -> list[tuple[str, str]]:
    return [(n[:100], n[:100]) for n in await app.maps.scenario_names(caller, typed)]


async def complete_feature(app: App, caller: Caller, typed: str) -> list[tuple[str, str]]:
    return [(label[:100], value) for label, value in await app.maps.feature_names(caller, typed)]


async def complete_terrain(app: App, caller: Caller, typed: str) -> list[tuple[str, str]]:
    wanted = typed.strip().casefold()
    return [(f"{k} ({'a line' if k in LINE_KINDS else 'an area'})", k) for k in KINDS if wanted in k]


COMMANDS = (
    Command(
        ("map", "new"),
        "Start the next battle's map: a shipped one, or an empty table (GM)",
        NewOptions,
        _new,
        completes={"scenario": complete_scenario},
        lock=True,
        gm_only=True,
        picture=True,
    ),
    Command(
        ("map", "feature", "add"),
        "Put a terrain feature on the next battle's map (game master)",
        FeatureAddOptions,
        _feature_add,
        completes={"kind": complete_terrain},
        lock=True,
        gm_only=True,
        picture=True,
    ),
    Command(
        ("map", "feature", "remove"),
        "Take a terrain feature off the next battle's map (game master)",
        FeatureRemoveOptions,
        _feature_remove,
        completes={"feature": complete_feature},
        lock=True,
        gm_only=True,
        picture=True,
    ),
    Command(
        ("map", "zone"),
        "Set a side's deployment zone on the next battle's map (GM)",
        ZoneOptions,
        _zone,
        lock=True,
        gm_only=True,
        picture=True,
    ),
    Command(
        ("map", "import"),
        "The next battle's map from a YAML map file (game master)",
        FileOptions,
        _import,
        lock=True,
        gm_only=True,
        picture=True,
    ),
    Command(("map", "export"), "The map as a YAML file: the battle's, or the next battle's", NoParams, _export),
    Command(
        ("map", "show"),
        "A picture of the battlefield (focus: one figure's reach and sight)",
        ShowOptions,
        _show,
        picture=True,
    ),
    Command(
        ("map", "place"),
        "Place a figure (or a unit) in its side's deployment zone, before turn 1",
        PlaceOptions,
        _place,
        lock=True,
        picture=True,
        follows=True,
    ),
    Command(
        ("map", "deploy"),
        "Set out a side's unplaced figures in its zone, before turn 1",
        DeployOptions,
        _deploy,
        lock=True,
        picture=True,
        follows=True,
    ),
)
