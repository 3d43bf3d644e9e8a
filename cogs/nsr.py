"""/nsr: Napoleonic Skirmish Rules orders for the unit a card has activated (the rules are in rules/nsr)."""

from __future__ import annotations

from typing import ClassVar, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from cogs.common import figure_autocomplete

Name = app_commands.Range[str, 1, 64]
Facing = app_commands.Range[str, 1, 40]
Inches = app_commands.Range[float, 0, 1000]
Count = app_commands.Range[int, 1, 200]
Going = Literal["cross_country", "road"]
Formation = Literal["line", "square", "march_column", "open_order", "limbered", "manhandled"]
TargetClass = Literal["I", "II", "III", "IV"]
Shot = Literal["ball", "grape"]
Part = Literal["door", "window", "wall", "rock_wall"]
Task = Literal["loophole", "door", "window", "wall", "rock_wall"]
Aim = Literal["leader", "key", "ordinary", "wounded"]
Cover = Literal["open", "linear", "building"]
Uphill = Literal["none", "charger", "defender"]

UNIT = "Your unit (default: the one chosen)"
EXPOSED = "Table, class IV: some of it looks out or stands outside"
FACING = "Map: face degrees (0 east, 90 north) or a point x,y"


class NsrCog(
    AppCog, commands.GroupCog, group_name="nsr", group_description="Napoleonic Skirmish Rules: orders for your units"
):
    #: The command a button offers under "your move" and /game status (bot/adapter/next_moves.py).
    quick_moves: ClassVar[tuple[str, ...]] = ("hold",)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    # --- movement phase

    @app_commands.command(name="move", description="Movement: move on the movement chart")
    @app_commands.describe(
        unit=UNIT,
        to='Map: where it goes, x,y ("14,22")',
        via='Map: waypoints, "10,12 14,18"',
        toward="Map: a unit or x,y to go straight at",
        distance="Map: inches toward it (default: all it may)",
        facing=FACING,
        going="Table: cross country (default) or road",
        rough="Table: rough terrain, lose the highest die",
        formation="Change formation on the way",
        carrying="Carry heavily wounded: lose the highest die",
        walking="Lightly wounded walk back: lose the lowest die",
        prone="Go prone (yes) or stand up (no)",
    )
    @app_commands.autocomplete(unit=figure_autocomplete, toward=figure_autocomplete)
    async def move(
        self,
        interaction: discord.Interaction,
        unit: Name | None = None,
        to: app_commands.Range[str, 1, 40] | None = None,
        via: app_commands.Range[str, 1, 200] | None = None,
        toward: Name | None = None,
        distance: Inches | None = None,
        facing: Facing | None = None,
        going: Going | None = None,
        rough: bool | None = None,
        formation: Formation | None = None,
        carrying: bool = False,
        walking: bool = False,
        prone: bool | None = None,
    ) -> None:
        await self.act(
            interaction,
            "nsr",
            "move",
            unit=unit,
            to=to,
            via=via,
            toward=toward,
            distance=distance,
            facing=facing,
            going=going,
            rough=rough,
            formation=formation,
            carrying=carrying,
            walking=walking,
            prone=prone,
        )

    @app_commands.command(
        name="charge", description='Movement: charge an enemy unit (stops 2" short; closes in close combat)'
    )
    @app_commands.describe(
        target="The enemy unit",
        unit=UNIT,
        going="Table: cross country (default) or road",
        rough="Table: rough terrain, lose the highest die",
        distance="Table: inches to the enemy (checks the reach)",
    )
    @app_commands.autocomplete(target=figure_autocomplete, unit=figure_autocomplete)
    async def charge(
        self,
        interaction: discord.Interaction,
        target: Name,
        unit: Name | None = None,
        going: Going | None = None,
        rough: bool | None = None,
        distance: Inches | None = None,
    ) -> None:
        await self.act(
            interaction, "nsr", "charge", target=target, unit=unit, going=going, rough=rough, distance=distance
        )

    @app_commands.command(name="form", description="Movement: reform, turn, limber or go prone in place")
    @app_commands.describe(
        unit=UNIT, formation="The new formation", facing=FACING, prone="Go prone (yes) or stand up (no)"
    )
    @app_commands.autocomplete(unit=figure_autocomplete)
    async def form(
        self,
        interaction: discord.Interaction,
        unit: Name | None = None,
        formation: Formation | None = None,
        facing: Facing | None = None,
        prone: bool | None = None,
    ) -> None:
        await self.act(interaction, "nsr", "form", unit=unit, formation=formation, facing=facing, prone=prone)

    @app_commands.command(name="hold", description="The unit does not move (movement) or does not fire (fire)")
    @app_commands.describe(unit=UNIT)
    @app_commands.autocomplete(unit=figure_autocomplete)
    async def hold(self, interaction: discord.Interaction, unit: Name | None = None) -> None:
        await self.act(interaction, "nsr", "hold", unit=unit)

    @app_commands.command(name="occupy", description="Movement: the unit moves into a building (if there is room)")
    @app_commands.describe(building="The building (described with /nsr building)", unit=UNIT)
    @app_commands.autocomplete(unit=figure_autocomplete)
    async def occupy(self, interaction: discord.Interaction, building: Name, unit: Name | None = None) -> None:
        await self.act(interaction, "nsr", "occupy", building=building, unit=unit)

    @app_commands.command(name="work", description="Movement: spend the move cutting a loophole or breaching by hand")
    @app_commands.describe(
        building="The building",
        task="A loophole, or what is breached",
        workers="Figures working (default 1)",
        unit=UNIT,
    )
    @app_commands.autocomplete(unit=figure_autocomplete)
    async def work(
        self,
        interaction: discord.Interaction,
        building: Name,
        task: Task,
        workers: Count | None = None,
        unit: Name | None = None,
    ) -> None:
        await self.act(interaction, "nsr", "work", building=building, task=task, workers=workers, unit=unit)

    # --- fire phase

    @app_commands.command(name="fire", description="Fire: the unit fires on the firing chart (one or two targets)")
    @app_commands.describe(
        target="The enemy unit",
        range="Table: inches to it",
        target_class="Table: overrides the class its formation gives",
        unit=UNIT,
        firers="Figures firing (default: all able)",
        shot="A gun's shot",
        wounded="Fire at its wounded figures (class III)",
        target2="A second target",
        range2="Table: inches to it",
        class2="Table: overrides its class",
        firers2="Figures firing at it (default: the rest)",
        exposed=EXPOSED,
        exposed2="Table: the second target, the same",
    )
    @app_commands.rename(target_class="class")
    @app_commands.autocomplete(target=figure_autocomplete, unit=figure_autocomplete, target2=figure_autocomplete)
    async def fire(
        self,
        interaction: discord.Interaction,
        target: Name,
        range: Inches | None = None,
        target_class: TargetClass | None = None,
        unit: Name | None = None,
        firers: Count | None = None,
        shot: Shot | None = None,
        wounded: bool = False,
        target2: Name | None = None,
        range2: Inches | None = None,
        class2: TargetClass | None = None,
        firers2: Count | None = None,
        exposed: bool | None = None,
        exposed2: bool | None = None,
    ) -> None:
        await self.act(
            interaction,
            "nsr",
            "fire",
            target=target,
            range=range,
            **{"class": target_class},
            unit=unit,
            firers=firers,
            shot=shot,
            wounded=wounded,
            target2=target2,
            range2=range2,
            class2=class2,
            firers2=firers2,
            exposed=exposed,
            exposed2=exposed2,
        )

    @app_commands.command(name="volley", description="Fire: a volley to the front within half range, a card per figure")
    @app_commands.describe(
        target="The enemy unit",
        range="Table: inches to it (half range at most)",
        target_class="Table: overrides the class its formation gives",
        unit=UNIT,
        firers="Figures volleying (default: all able)",
        exposed=EXPOSED,
    )
    @app_commands.rename(target_class="class")
    @app_commands.autocomplete(target=figure_autocomplete, unit=figure_autocomplete)
    async def volley(
        self,
        interaction: discord.Interaction,
        target: Name,
        range: Inches | None = None,
        target_class: TargetClass | None = None,
        unit: Name | None = None,
        firers: Count | None = None,
        exposed: bool | None = None,
    ) -> None:
        await self.act(
            interaction,
            "nsr",
            "volley",
            target=target,
            range=range,
            **{"class": target_class},
            unit=unit,
            firers=firers,
            exposed=exposed,
        )

    @app_commands.command(
        name="pistol", description="Fire: an officer's aimed pistol shot (5 wounds, 6 kills); fire after"
    )
    @app_commands.describe(
        target="The enemy unit",
        range="Table: inches to the figure aimed at",
        aim="Which kind: a leader by default",
        figure="Or one figure by name",
        unit=UNIT,
        exposed="Table, in a building: some of it looks out of a door or window",
    )
    @app_commands.autocomplete(target=figure_autocomplete, unit=figure_autocomplete)
    async def pistol(
        self,
        interaction: discord.Interaction,
        target: Name,
        range: Inches | None = None,
        aim: Aim | None = None,
        figure: Name | None = None,
        unit: Name | None = None,
        exposed: bool | None = None,
    ) -> None:
        await self.act(
            interaction,
            "nsr",
            "pistol",
            target=target,
            range=range,
            aim=aim,
            figure=figure,
            unit=unit,
            exposed=exposed,
        )

    @app_commands.command(
        name="bombard", description="Fire: a gun fires at a building's door, window or wall to breach it"
    )
    @app_commands.describe(
        building="The building", part="What the gun fires at", shot="Ball (default) or grape", unit=UNIT
    )
    @app_commands.autocomplete(unit=figure_autocomplete)
    async def bombard(
        self,
        interaction: discord.Interaction,
        building: Name,
        part: Part,
        shot: Shot = "ball",
        unit: Name | None = None,
    ) -> None:
        await self.act(interaction, "nsr", "bombard", building=building, part=part, shot=shot, unit=unit)

    # --- close combat phase and the table

    @app_commands.command(name="melee", description="Close combat: complete a charge (close-in, stand, the fights)")
    @app_commands.describe(
        unit="The charging unit (default: the first waiting)",
        reached="Table: no if every charged figure has moved away",
        cover="Table: the defenders' position",
        uphill="Table: which side stands uphill",
        rear="Table: the defenders are attacked from the rear",
    )
    @app_commands.autocomplete(unit=figure_autocomplete)
    async def melee(
        self,
        interaction: discord.Interaction,
        unit: Name | None = None,
        reached: bool | None = None,
        cover: Cover | None = None,
        uphill: Uphill | None = None,
        rear: bool | None = None,
    ) -> None:
        await self.act(interaction, "nsr", "melee", unit=unit, reached=reached, cover=cover, uphill=uphill, rear=rear)

    @app_commands.command(name="building", description="Describe a building: roof places, storeys, windows, open doors")
    @app_commands.describe(
        name="The building's name",
        roof="Figures that fit on its roof",
        storeys="Storeys",
        windows="Windows to fire from",
        doors="Open doors to fire from",
    )
    async def building(
        self,
        interaction: discord.Interaction,
        name: Name,
        roof: app_commands.Range[int, 1, 200],
        storeys: app_commands.Range[int, 1, 20],
        windows: app_commands.Range[int, 0, 200] = 0,
        doors: app_commands.Range[int, 0, 50] = 0,
    ) -> None:
        await self.act(
            interaction, "nsr", "building", name=name, roof=roof, storeys=storeys, windows=windows, doors=doors
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NsrCog(bot))
