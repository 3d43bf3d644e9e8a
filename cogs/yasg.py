"""/yasg: Yet Another Skirmish Game on a square grid (the rules are in rules/yasg)."""

from __future__ import annotations

from typing import ClassVar, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from cogs.common import figure_autocomplete

Name = app_commands.Range[str, 1, 64]
Squares = app_commands.Range[str, 1, 200]
Size = app_commands.Range[int, 4, 30]
FACINGS = [
    app_commands.Choice(name=word, value=value)
    for word, value in (("north", "n"), ("east", "e"), ("south", "s"), ("west", "w"))
]
#: /help's example values: YASG names squares, not inches (bot/adapter/help.py).
SQUARES = {"samples": {"to": "E4", "square": "E2", "squares": "C4:F4", "kind": "wood"}}


class YasgCog(
    AppCog, commands.GroupCog, group_name="yasg", group_description="Yet Another Skirmish Game: the board and your turn"
):
    #: The command a button offers under "your move" and /game status (bot/adapter/next_moves.py).
    quick_moves: ClassVar[tuple[str, ...]] = ("next",)
    figure_moves: ClassVar[tuple[str, ...]] = ("move", "face", "load", "fire", "engage")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    @app_commands.command(name="board", description="Setup: the board's size in squares, or a ready map")
    @app_commands.describe(
        width="Columns (A, B, …)", height="Rows (1, 2, …)", map="A map by name, e.g. farm or open field"
    )
    async def board(
        self,
        interaction: discord.Interaction,
        width: Size | None = None,
        height: Size | None = None,
        map: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await self.act(interaction, "yasg", "board", width=width, height=height, map=map)

    @app_commands.command(
        name="terrain", description="Setup: make squares hill, crops, wood, rubble, building or open", extras=SQUARES
    )
    @app_commands.describe(
        squares="Squares or rectangles, like C4 E5:F6",
        kind="open, hill, crops, wood, rubble or building",
        uphill="A hill's uphill sides, like n e (default: every side facing lower ground)",
    )
    async def terrain(
        self,
        interaction: discord.Interaction,
        squares: Squares,
        kind: app_commands.Range[str, 1, 32],
        uphill: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        await self.act(interaction, "yasg", "terrain", squares=squares, kind=kind, uphill=uphill)

    @app_commands.command(
        name="edge", description="Setup: a hedge or wall along one side of squares (none clears it)", extras=SQUARES
    )
    @app_commands.describe(
        squares="Squares or rectangles, like C4:F4", side="The side of those squares", kind="hedge, wall or none"
    )
    @app_commands.choices(side=FACINGS)
    async def edge(
        self, interaction: discord.Interaction, squares: Squares, side: str, kind: app_commands.Range[str, 1, 32]
    ) -> None:
        await self.act(interaction, "yasg", "edge", squares=squares, side=side, kind=kind)

    @app_commands.command(name="place", description="Setup: put your figure on a square, facing a way", extras=SQUARES)
    @app_commands.describe(
        figure="Your figure", square="A square, like C4", facing="Which way it faces (default: the middle)"
    )
    @app_commands.autocomplete(figure=figure_autocomplete)
    @app_commands.choices(facing=FACINGS)
    async def place(
        self,
        interaction: discord.Interaction,
        figure: Name,
        square: app_commands.Range[str, 2, 5],
        facing: str | None = None,
    ) -> None:
        await self.act(interaction, "yasg", "place", figure=figure, square=square, facing=facing)

    @app_commands.command(
        name="move", description="Movement: walk 2 or run 4 squares through sides (1 or 3 to fire too)", extras=SQUARES
    )
    @app_commands.describe(
        figure="Your figure",
        to="A square (the bot finds the way) or a path, like C5 D5",
        pace="walk or run (default: walk if it is far enough)",
        facing="Its facing after the move",
    )
    @app_commands.autocomplete(figure=figure_autocomplete)
    @app_commands.choices(facing=FACINGS)
    async def move(
        self,
        interaction: discord.Interaction,
        figure: Name,
        to: app_commands.Range[str, 2, 60],
        pace: Literal["walk", "run"] | None = None,
        facing: str | None = None,
    ) -> None:
        await self.act(interaction, "yasg", "move", figure=figure, to=to, pace=pace, facing=facing)

    @app_commands.command(name="face", description="Movement: turn your figure to face north, east, south or west")
    @app_commands.describe(figure="Your figure", facing="The way it faces (its 45° arc of fire)")
    @app_commands.autocomplete(figure=figure_autocomplete)
    @app_commands.choices(facing=FACINGS)
    async def face(self, interaction: discord.Interaction, figure: Name, facing: str) -> None:
        await self.act(interaction, "yasg", "face", figure=figure, facing=facing)

    @app_commands.command(name="load", description="Your figure spends this turn loading (no move, no close combat)")
    @app_commands.describe(figure="Your figure")
    @app_commands.autocomplete(figure=figure_autocomplete)
    async def load(self, interaction: discord.Interaction, figure: Name) -> None:
        await self.act(interaction, "yasg", "load", figure=figure)

    @app_commands.command(name="fire", description="Fire phase: your figure fires at an enemy in its arc (rolled now)")
    @app_commands.describe(figure="Your figure", target="The enemy it fires at")
    @app_commands.autocomplete(figure=figure_autocomplete, target=figure_autocomplete)
    async def fire(self, interaction: discord.Interaction, figure: Name, target: Name) -> None:
        await self.act(interaction, "yasg", "fire", figure=figure, target=target)

    @app_commands.command(name="engage", description="Close combat: which adjacent enemy your figure fights")
    @app_commands.describe(figure="Your figure", target="The adjacent enemy it fights")
    @app_commands.autocomplete(figure=figure_autocomplete, target=figure_autocomplete)
    async def engage(self, interaction: discord.Interaction, figure: Name, target: Name) -> None:
        await self.act(interaction, "yasg", "engage", figure=figure, target=target)

    @app_commands.command(
        name="look", description="Range, arc, line of fire, cover and the number needed (only you see it)"
    )
    @app_commands.describe(figure="The figure looking", target="The figure it looks at")
    @app_commands.autocomplete(figure=figure_autocomplete, target=figure_autocomplete)
    async def look(self, interaction: discord.Interaction, figure: Name, target: Name) -> None:
        await self.act(interaction, "yasg", "look", figure=figure, target=target)

    @app_commands.command(name="next", description="End this phase; rolls morale, initiative and close combat for all")
    async def next_(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "yasg", "next")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(YasgCog(bot))
