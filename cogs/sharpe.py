"""/sharpe: Sharpe's Skirmish, one character's turn at a time (the rules are in rules/sharpe).

A defender's choice (parry, riposte, dodge, distract, turn…) is not a command: it is asked of the
defender's player with buttons (or /decide in the terminal).
"""

from __future__ import annotations

from typing import ClassVar, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cog import AppCog
from bot.adapter.delivery import deliver
from bot.adapter.messages import caller_of
from cogs.common import TO_HELP, VIA_HELP, figure_autocomplete

Name = app_commands.Range[str, 1, 64]
Text = app_commands.Range[str, 1, 200]
Inches = app_commands.Range[float, 0, 1000]
Feet = app_commands.Range[int, 0, 100]
Pace = Literal["crawl", "walk", "run", "trot", "canter", "gallop"]
Flank = Literal["front", "right", "left", "rear"]
Situation = Literal[
    "none",
    "backwards",
    "backwards_bad_going",
    "run_bad_going",
    "low_wall",
    "fight_bad_going",
    "high_wall",
    "climb_tree",
    "jump_down",
]
ACTIVE = "Default: whose turn it is"


class SharpeCog(
    AppCog, commands.GroupCog, group_name="sharpe", group_description="Sharpe's Skirmish: your character's turn"
):
    #: The command a button offers under "your move" and /game status (bot/adapter/next_moves.py).
    quick_moves: ClassVar[tuple[str, ...]] = ("done",)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot  # type: ignore[assignment]
        super().__init__()

    @app_commands.command(name="move", description="Move the character whose turn it is")
    @app_commands.describe(
        distance="Inches (table play; on the map with toward:, default as far as the pace allows)",
        figure=ACTIVE,
        pace="Foot: crawl, walk, run; horse: walk to gallop",
        to=TO_HELP,
        toward="Map: a man (into base contact if an enemy) or x,y to move straight at",
        via=VIA_HELP,
        bad_going="Table play: half speed (the map measures it)",
        backwards="Going backwards (D check)",
        contact="Table play: enemy reached, the move ends (on the map: toward:)",
        turn="Table play: degrees a horse turns (the map measures it)",
    )
    @app_commands.autocomplete(figure=figure_autocomplete, contact=figure_autocomplete, toward=figure_autocomplete)
    async def move(
        self,
        interaction: discord.Interaction,
        distance: Inches | None = None,
        figure: Name | None = None,
        pace: Pace | None = None,
        to: app_commands.Range[str, 1, 40] | None = None,
        toward: Name | None = None,
        via: app_commands.Range[str, 1, 200] | None = None,
        bad_going: bool | None = None,
        backwards: bool | None = None,
        contact: Name | None = None,
        turn: app_commands.Range[int, 0, 180] | None = None,
    ) -> None:
        await self.act(
            interaction,
            "sharpe",
            "move",
            figure=figure,
            distance=distance,
            to=to,
            toward=toward,
            via=via,
            pace=pace,
            bad_going=bad_going,
            backwards=backwards,
            contact=contact,
            turn=turn,
        )

    @app_commands.command(name="shoot", description="Fire at an enemy: 2D6 against the firing skill")
    @app_commands.describe(
        target="The enemy",
        range="Inches (a table of your own; the map measures it)",
        shooter=ACTIVE,
        weapon="Default: his first loaded firearm",
        gun="Fire his side's artillery piece",
        aimed="Still since last move (+1)",
        resting="Gun rested (+1)",
        cover="Target's cover",
        hidden="Parts hard cover hides (default legs, abdomen)",
        at="Horse or rider",
        flank="Target's flank towards the firer",
        left_hand="Pistol in the left hand",
        tap_load="Tap-load the rifle after",
        perch_ft="Target's height above ground",
        also="Volley gun, artillery: more targets, nearest first",
    )
    @app_commands.autocomplete(target=figure_autocomplete, shooter=figure_autocomplete, gun=figure_autocomplete)
    async def shoot(
        self,
        interaction: discord.Interaction,
        target: Name,
        range: Inches | None = None,
        shooter: Name | None = None,
        weapon: app_commands.Range[str, 1, 32] | None = None,
        gun: Name | None = None,
        aimed: bool | None = None,
        resting: bool | None = None,
        cover: Literal["none", "soft", "hard"] | None = None,
        hidden: Text | None = None,
        at: Literal["rider", "horse"] | None = None,
        flank: Literal["front", "left", "right"] | None = None,
        left_hand: bool | None = None,
        tap_load: bool | None = None,
        perch_ft: Feet | None = None,
        also: Text | None = None,
    ) -> None:
        await self.act(
            interaction,
            "sharpe",
            "shoot",
            target=target,
            range=range,
            shooter=shooter,
            weapon=weapon,
            gun=gun,
            aimed=aimed,
            resting=resting,
            cover=cover,
            hidden=hidden,
            at=at,
            flank=flank,
            left_hand=left_hand,
            tap_load=tap_load,
            perch_ft=perch_ft,
            also=also,
        )

    @app_commands.command(name="attack", description="Attack an enemy in melee; his player chooses the defence")
    @app_commands.describe(
        defender="The enemy",
        attacker=ACTIVE,
        flank="Defender's flank attacked",
        weapon="Default: his best; or bare",
        blow="Bare hands",
        uphill="Who is uphill (+1)",
        obstacle="defender: he holds it; counter: you parried there",
        no_room="He cannot give ground",
        follow_up="Follow up",
        capture="Knock him out",
        silent="Sneaking up from behind",
        at="Man or horse",
        ride_over="Ride him down",
        bad_going="Fighting in bad going",
        left_hand="Sword in the left hand",
        perch_ft="Defender's height above ground",
    )
    @app_commands.autocomplete(defender=figure_autocomplete, attacker=figure_autocomplete)
    async def attack(
        self,
        interaction: discord.Interaction,
        defender: Name,
        attacker: Name | None = None,
        flank: Flank | None = None,
        weapon: app_commands.Range[str, 1, 32] | None = None,
        blow: Literal["punch", "kick", "headbutt"] | None = None,
        uphill: Literal["none", "attacker", "defender"] | None = None,
        obstacle: Literal["none", "defender", "counter"] | None = None,
        no_room: bool | None = None,
        follow_up: bool | None = None,
        capture: bool | None = None,
        silent: bool | None = None,
        at: Literal["man", "horse"] | None = None,
        ride_over: bool | None = None,
        bad_going: bool | None = None,
        left_hand: bool | None = None,
        perch_ft: Feet | None = None,
    ) -> None:
        await self.act(
            interaction,
            "sharpe",
            "attack",
            defender=defender,
            attacker=attacker,
            flank=flank,
            weapon=weapon,
            blow=blow,
            uphill=uphill,
            obstacle=obstacle,
            no_room=no_room,
            follow_up=follow_up,
            capture=capture,
            silent=silent,
            at=at,
            ride_over=ride_over,
            bad_going=bad_going,
            left_hand=left_hand,
            perch_ft=perch_ft,
        )

    @app_commands.command(name="check", description="An action check against I, D or S: 1D6, a 6 fails")
    @app_commands.describe(
        ability="Default D",
        situation="Its modifier from the table",
        height_ft="Jumping down: feet",
        modifier="Agreed extra modifier",
        what="What he tries",
        figure=ACTIVE,
    )
    @app_commands.autocomplete(figure=figure_autocomplete)
    async def check(
        self,
        interaction: discord.Interaction,
        ability: Literal["I", "D", "S"] | None = None,
        situation: Situation | None = None,
        height_ft: Feet | None = None,
        modifier: app_commands.Range[int, -6, 6] | None = None,
        what: app_commands.Range[str, 1, 60] | None = None,
        figure: Name | None = None,
    ) -> None:
        await self.act(
            interaction,
            "sharpe",
            "check",
            ability=ability,
            situation=situation,
            height_ft=height_ft,
            modifier=modifier,
            what=what,
            figure=figure,
        )

    @app_commands.command(name="task", description="A strength task for several men: all must succeed")
    @app_commands.describe(
        helpers="Comrades helping, comma-separated",
        strength="Default: known, or D6+6",
        thing="What they force",
        figure=ACTIVE,
    )
    @app_commands.rename(thing="object")
    @app_commands.autocomplete(figure=figure_autocomplete)
    async def task(
        self,
        interaction: discord.Interaction,
        helpers: Text | None = None,
        strength: app_commands.Range[int, 1, 30] | None = None,
        thing: app_commands.Range[str, 1, 40] | None = None,
        figure: Name | None = None,
    ) -> None:
        await self.act(interaction, "sharpe", "task", helpers=helpers, strength=strength, object=thing, figure=figure)

    @app_commands.command(name="push", description="Push a man out of the way (S, then his D)")
    @app_commands.describe(pushed="The man pushed", pusher=ACTIVE)
    @app_commands.autocomplete(pushed=figure_autocomplete, pusher=figure_autocomplete)
    async def push(self, interaction: discord.Interaction, pushed: Name, pusher: Name | None = None) -> None:
        await self.act(interaction, "sharpe", "push", pushed=pushed, pusher=pusher)

    @app_commands.command(name="collide", description="A collision: each man tests D or falls")
    @app_commands.describe(figures="Comma-separated")
    async def collide(self, interaction: discord.Interaction, figures: Text) -> None:
        await self.act(interaction, "sharpe", "collide", figures=figures)

    @app_commands.command(name="rise", description="Get up (knocked down: 1D6 against I)")
    @app_commands.describe(figure=ACTIVE)
    @app_commands.autocomplete(figure=figure_autocomplete)
    async def rise(self, interaction: discord.Interaction, figure: Name | None = None) -> None:
        await self.act(interaction, "sharpe", "rise", figure=figure)

    @app_commands.command(name="control", description="Master a runaway horse (D check)")
    @app_commands.describe(figure=ACTIVE)
    @app_commands.autocomplete(figure=figure_autocomplete)
    async def control(self, interaction: discord.Interaction, figure: Name | None = None) -> None:
        await self.act(interaction, "sharpe", "control", figure=figure)

    @app_commands.command(name="pickup", description="Pick up a dropped weapon, or pass it on")
    @app_commands.describe(weapon="On the ground", figure=ACTIVE, give_to="A comrade")
    @app_commands.autocomplete(figure=figure_autocomplete, give_to=figure_autocomplete)
    async def pickup(
        self,
        interaction: discord.Interaction,
        weapon: app_commands.Range[str, 1, 32],
        figure: Name | None = None,
        give_to: Name | None = None,
    ) -> None:
        await self.act(interaction, "sharpe", "pickup", weapon=weapon, figure=figure, give_to=give_to)

    @app_commands.command(name="load", description="Load his empty firearm, or a gun")
    @app_commands.describe(gun="Default: his firearm, else his side's gun", figure=ACTIVE)
    @app_commands.autocomplete(gun=figure_autocomplete, figure=figure_autocomplete)
    async def load(self, interaction: discord.Interaction, gun: Name | None = None, figure: Name | None = None) -> None:
        await self.act(interaction, "sharpe", "load", gun=gun, figure=figure)

    @app_commands.command(name="haul", description="Map: drag a gun at a crawl (a man touching it, his move)")
    @app_commands.describe(to=TO_HELP, via=VIA_HELP, gun="Default: his side's gun", figure=ACTIVE)
    @app_commands.autocomplete(gun=figure_autocomplete, figure=figure_autocomplete)
    async def haul(
        self,
        interaction: discord.Interaction,
        to: app_commands.Range[str, 1, 40] | None = None,
        via: app_commands.Range[str, 1, 200] | None = None,
        gun: Name | None = None,
        figure: Name | None = None,
    ) -> None:
        await self.act(interaction, "sharpe", "haul", to=to, via=via, gun=gun, figure=figure)

    @app_commands.command(name="targets", description="Map: whom he should shoot first (only you see it)")
    @app_commands.describe(shooter="A man, or a gun", weapon="Default: the firearm in his hand")
    @app_commands.autocomplete(shooter=figure_autocomplete)
    async def targets(
        self,
        interaction: discord.Interaction,
        shooter: Name,
        weapon: app_commands.Range[str, 1, 32] | None = None,
    ) -> None:
        await deliver(interaction, await self.app.sharpe_targets(caller_of(interaction), shooter, weapon))

    @app_commands.command(name="kill", description="Kill an unconscious enemy in contact since last bound")
    @app_commands.describe(victim="Unconscious enemy", killer=ACTIVE)
    @app_commands.autocomplete(victim=figure_autocomplete, killer=figure_autocomplete)
    async def kill(self, interaction: discord.Interaction, victim: Name, killer: Name | None = None) -> None:
        await self.act(interaction, "sharpe", "kill", victim=victim, killer=killer)

    @app_commands.command(name="done", description="End this character's turn")
    @app_commands.describe(figure="The man whose turn ends (default: whose turn it is)")
    @app_commands.autocomplete(figure=figure_autocomplete)
    async def done(self, interaction: discord.Interaction, figure: Name | None = None) -> None:
        await self.act(interaction, "sharpe", "done", figure=figure)

    @app_commands.command(name="weather", description="Game master: weather (misfires) and night")
    @app_commands.describe(weather="Fog, rain: misfires", night="Night (−1)")
    async def weather(
        self,
        interaction: discord.Interaction,
        weather: Literal["clear", "fog", "rain"] | None = None,
        night: bool | None = None,
    ) -> None:
        await self.act(interaction, "sharpe", "weather", weather=weather, night=night)

    @app_commands.command(name="concede", description="Your side gives up")
    @app_commands.describe(confirm="True: you mean it", side="Game master: either side")
    async def concede(
        self,
        interaction: discord.Interaction,
        confirm: bool | None = None,
        side: app_commands.Range[str, 1, 32] | None = None,
    ) -> None:
        await self.act(interaction, "sharpe", "concede", confirm=confirm, side=side)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SharpeCog(bot))
