"""/medieval: a figure's actions in its activation (the rules are in rules/medieval).

Who goes first is a decision for the roll-off winner (buttons, or /decide choice:first|second).
On the bot's map the figures are placed first (/map place, /map deploy) and the bot measures
moves (``to``, ``toward``, ``via``), range, sight, cover, contact and height; at a table the
players give ``distance``, ``engage``, ``range``, ``cover``, ``height`` and ``barricade``.

Figures join with ``/roster add``: ``kind`` is Knight, Man at Arms, Viking Warrior, Viking Hero or
custom; ``stats`` may give the kit, ``weapons=bow+sword armour=mailshirt+small-shield`` (``+``
between items, ``none`` for nothing), and a custom figure gives its own numbers too:
``stats:"speed=6 bravery=4 shoot=3 fight=3 weapons=sword+dagger armour=leather+small-shield"``.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from cogs.common import TO_HELP, VIA_HELP, figure_autocomplete

Name = app_commands.Range[str, 1, 64]
Inches = app_commands.Range[float, 0, 1000]
Point = app_commands.Range[str, 1, 40]
Path = app_commands.Range[str, 1, 200]
Cover = Literal["none", "soft", "hard"]
Whose = Literal["none", "mine", "theirs"]


class MedievalCog(
    AppCog,
    commands.GroupCog,
    group_name="medieval",
    group_description="Medieval skirmish: knights, men at arms and Vikings",
):
    #: The command a button offers under "your move" and /game status (bot/adapter/next_moves.py).
    quick_moves: ClassVar[tuple[str, ...]] = ("endturn",)
    figure_moves: ClassVar[tuple[str, ...]] = ("move", "shoot", "fight", "breakoff")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    @app_commands.command(name="activate", description="Activate a figure; a seriously wounded one tests Bravery first")
    @app_commands.describe(figure="Your figure")
    @app_commands.autocomplete(figure=figure_autocomplete)
    async def activate(self, interaction: discord.Interaction, figure: Name) -> None:
        await self.act(interaction, "medieval", "activate", figure=figure)

    @app_commands.command(name="move", description="Move part or all of a figure's speed, and maybe engage an enemy")
    @app_commands.describe(
        figure="Your figure",
        to=TO_HELP,
        toward="Map: a figure (into base contact if an enemy) or x,y to move straight at",
        via=VIA_HELP,
        distance="Inches moved now (table play; on the map with toward:, default as far as it may)",
        engage="Table play: the enemy it moves into contact with (on the map: toward:)",
    )
    @app_commands.autocomplete(figure=figure_autocomplete, toward=figure_autocomplete, engage=figure_autocomplete)
    async def move(
        self,
        interaction: discord.Interaction,
        figure: Name,
        to: Point | None = None,
        toward: Name | None = None,
        via: Path | None = None,
        distance: Inches | None = None,
        engage: Name | None = None,
    ) -> None:
        await self.act(
            interaction,
            "medieval",
            "move",
            figure=figure,
            to=to,
            toward=toward,
            via=via,
            distance=distance,
            engage=engage,
        )

    @app_commands.command(name="stand", description="A prone figure stands up (uses half its speed)")
    @app_commands.describe(figure="Your prone figure")
    @app_commands.autocomplete(figure=figure_autocomplete)
    async def stand(self, interaction: discord.Interaction, figure: Name) -> None:
        await self.act(interaction, "medieval", "stand", figure=figure)

    @app_commands.command(name="shoot", description="Shoot or throw: D6 + Shoot + Accuracy + factors, 5 or more hits")
    @app_commands.describe(
        figure="Your figure",
        target="The enemy it shoots at",
        range="Table play: inches to the target (the bot measures it on the map)",
        cover="Table play: the target's cover (the bot sees it on the map)",
        shots="Shots now (default: all its rate of fire left)",
        weapon="Bow, Dagger... (default: its first missile weapon)",
    )
    @app_commands.autocomplete(figure=figure_autocomplete, target=figure_autocomplete)
    async def shoot(
        self,
        interaction: discord.Interaction,
        figure: Name,
        target: Name,
        range: Inches | None = None,
        cover: Cover | None = None,
        shots: app_commands.Range[int, 1, 10] | None = None,
        weapon: Name | None = None,
    ) -> None:
        await self.act(
            interaction,
            "medieval",
            "shoot",
            figure=figure,
            target=target,
            range=range,
            cover=cover,
            shots=shots,
            weapon=weapon,
        )

    @app_commands.command(
        name="fight", description="Hand-to-hand: D6 + Fight + Accuracy + factors each, the higher wounds"
    )
    @app_commands.describe(
        figure="Your figure",
        opponent="The enemy in contact it fights (default: its only one)",
        weapon="Its weapon (default: its first hand-to-hand weapon)",
        height="Table play: who has the height advantage (the bot sees hills on the map)",
        barricade="Table play: who defends a barricade (the bot sees it on the map)",
    )
    @app_commands.autocomplete(figure=figure_autocomplete, opponent=figure_autocomplete)
    async def fight(
        self,
        interaction: discord.Interaction,
        figure: Name,
        opponent: Name | None = None,
        weapon: Name | None = None,
        height: Whose | None = None,
        barricade: Whose | None = None,
    ) -> None:
        await self.act(
            interaction,
            "medieval",
            "fight",
            figure=figure,
            opponent=opponent,
            weapon=weapon,
            height=height,
            barricade=barricade,
        )

    @app_commands.command(
        name="breakoff", description="Try to move away from hand-to-hand: a Bravery contest with each opponent"
    )
    @app_commands.describe(
        figure="Your figure in hand-to-hand",
        distance="Table play: inches it moves away if it breaks off (on the map with toward:)",
        to="Map: where it goes if it breaks off, x,y in inches",
        toward="Map: a figure or x,y it moves straight at if it breaks off",
        via='Map: waypoints on its way out, "10,12 14,18"',
    )
    @app_commands.autocomplete(figure=figure_autocomplete, toward=figure_autocomplete)
    async def breakoff(
        self,
        interaction: discord.Interaction,
        figure: Name,
        distance: Inches | None = None,
        to: Point | None = None,
        toward: Name | None = None,
        via: Path | None = None,
    ) -> None:
        await self.act(
            interaction, "medieval", "breakoff", figure=figure, distance=distance, to=to, toward=toward, via=via
        )

    @app_commands.command(name="heal", description="Treat a friend in contact: light wound to full, serious to light")
    @app_commands.describe(
        figure="Your figure doing the treating (it spends its activation)", patient="The wounded friend"
    )
    @app_commands.autocomplete(figure=figure_autocomplete, patient=figure_autocomplete)
    async def heal(self, interaction: discord.Interaction, figure: Name, patient: Name) -> None:
        await self.act(interaction, "medieval", "heal", figure=figure, patient=patient)

    @app_commands.command(name="pickup", description="Pick up a thrown weapon, or plunder a killed figure's kit")
    @app_commands.describe(
        figure="Your figure",
        item="The weapon or armour (Dagger, Sword, Small Shield...)",
        source="The killed figure plundered (default: from the ground)",
    )
    @app_commands.autocomplete(figure=figure_autocomplete, source=figure_autocomplete)
    async def pickup(
        self, interaction: discord.Interaction, figure: Name, item: Name, source: Name | None = None
    ) -> None:
        await self.act(interaction, "medieval", "pickup", figure=figure, item=item, source=source)

    @app_commands.command(name="endturn", description="End your turn: the other side activates its figures")
    async def endturn(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "medieval", "endturn")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MedievalCog(bot))
