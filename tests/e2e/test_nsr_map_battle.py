"""An NSR battle on the shipped village map through the loopback Discord, with the real bot
process (issue 17): the game master drafts the map and starts the battle, each side places its
units whole in its zone with /map place, the cards are turned on the secure deck and the side each
names chooses the unit that acts; the units close on one another with moves the bot measures,
charge when the enemy is within reach, fire and volley at what they can see, and fight out their
charges in the close combat phase. A place outside the zone is refused privately in one sentence.
The bot restarts mid-battle and the game goes on where it was. The battlefield's picture comes
with the deployment's end and each movement phase's end: PNG attachments, decoded, of the right
size. After every answer the saved battle has no two units overlapping and none off the table.

Discord's dice and cards are secure randomness nothing can force, so the battle goes on card after
card (bounded) and the test asserts what must have happened whatever was drawn."""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass, field
from typing import Any

from PIL import Image
from sqlalchemy import select

from bot.app.replies import Caller
from bot.store.schema import DecisionRecord, Game
from rules import get_engine
from rules.battlefield import battlefield_of
from rules.battlefield.formations import footprint, on_table, overlaps
from rules.nsr import onmap
from rules.nsr.state import NsrState, Unit
from tests.e2e.attachments import picture_of
from tests.e2e.fake_discord import APPLICATION_COMMAND, FakeDiscord, FakeUser, InteractionResult
from tests.e2e.seeding import new_table, seeded_app
from tests.e2e.test_ssg_game import refusal
from tests.orm import orm

UNITS = {
    "French": [("1er Ligne", "line", "figures=8"), ("Chasseurs", "mounted", "figures=4")],
    "Allied": [("33rd Foot", "line", "figures=8"), ("Rifles", "light", "figures=4 weapon=rifle")],
}
#: Where each unit is set down in its side's zone (x,y inches: the French south, the Allies north).
#: Two clear ways up the table: between the knoll and the stream, and east of the stream.
PLACES = {"1er Ligne": "39.5,6", "Chasseurs": "46,5", "33rd Foot": "39.5,30", "Rifles": "46,30"}
#: Cards answered (a choice, then the order) before the battle is left where it is.
MAX_STEPS = 160
#: Battles the table may play before one has shown a charge, a fight and fire (see the test).
ATTEMPTS = 3
#: A player closes STEP inches at a time, and charges only once the enemy is this near (edge to
#: edge): the lines come within musket range, and fire, before they charge.
STEP = 4
CHARGE_WITHIN = 8


async def battle(app: Any) -> tuple[Game, NsrState, DecisionRecord | None]:
    """The battle as the database holds it, and the decision waiting (None when none is)."""
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game).order_by(Game.id.desc()))
        assert game is not None
        decision = await s.scalar(
            select(DecisionRecord)
            .where(DecisionRecord.status == "open", DecisionRecord.game_id == game.id)
            .order_by(DecisionRecord.id.desc())
        )
    state: NsrState = get_engine("nsr").load_state(game.state)
    return game, state, decision


def assert_apart(state: NsrState) -> None:
    table = battlefield_of(onmap.field_of(state).map).table
    shapes = {}
    for unit in state.units:
        placed = onmap.placement_of(state, unit)
        if placed is not None:
            assert on_table(placed, table, onmap.SPEC), unit.name
            shapes[unit.name] = footprint(placed, onmap.SPEC)
    for (a, pa), (b, pb) in itertools.combinations(shapes.items(), 2):
        assert not overlaps(pa, pb), f"{a} overlaps {b}"


async def place(fake: FakeDiscord, user: FakeUser, figure: str, at: str) -> InteractionResult:
    """``/map place figure: at:`` as :meth:`FakeDiscord.slash` sends it (whose own ``at`` keyword
    names the channel, so the option goes in by hand): checked against the synced command."""
    guild = fake.guild_of(fake.channel)
    data, declared, node = fake._subcommand("map place", guild)
    node["options"], _, _ = fake._build_options("map place", declared, {"figure": figure, "at": at}, guild)
    interaction = fake._interaction(APPLICATION_COMMAND, user, fake.channel, data)
    await fake._dispatch(interaction)
    return await fake._result(interaction, None)


async def picture_size(fake: FakeDiscord, result: InteractionResult) -> tuple[int, int]:
    data = await picture_of(fake, result)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = Image.open(io.BytesIO(data)).size
    assert 1100 <= width <= 1300 and height > width / 2, (width, height)
    return width, height


def orders_for(state: NsrState, unit: Unit) -> list[tuple[str, dict[str, Any]]]:
    """What a sensible player tries with ``unit`` now, best first: at the nearest enemy, then the
    others (a way may be blocked); holding is always last."""
    mine = onmap.placement_of(state, unit)
    enemies = [e for e in state.units if e.side != unit.side]
    if mine is None:
        return [("nsr hold", {})]
    gap = {
        e.name: footprint(mine).distance(footprint(theirs)) for e in enemies if (theirs := onmap.placement_of(state, e))
    }
    names = sorted(gap, key=lambda name: (gap[name], name))
    tries: list[tuple[str, dict[str, Any]]]
    if state.phase == "fire":
        tries = [(order, {"target": name}) for name in names for order in ("nsr volley", "nsr fire")]
    else:
        forward = STEP if unit.side == "French" else -STEP
        lane = float(PLACES[unit.name].split(",")[0])
        tries = [("nsr charge", {"target": name}) for name in names if gap[name] <= CHARGE_WITHIN]
        tries += [("nsr move", {"toward": name, "distance": STEP}) for name in names]
        tries.append(("nsr move", {"to": f"{lane:g},{mine.centre.y + forward:.2f}"}))  # up its own lane
    return [*tries, ("nsr hold", {})]


@dataclass
class Fought:
    """What one battle through Discord got to: the orders and fights carried out, the refusals met."""

    done: set[str] = field(default_factory=set)
    said_no: list[str] = field(default_factory=list)
    pictures: int = 1
    restarted: bool = False

    @property
    def whole(self) -> bool:
        """A charge, a move, a fight and some fire: what the test is for."""
        return {"nsr charge", "nsr move", "melee"} <= self.done and bool(self.done & {"nsr fire", "nsr volley"})


async def test_an_nsr_battle_on_the_village_across_a_restart(fake: FakeDiscord, bot: Any) -> None:
    """The dice are the bot's own, secret and random: a battle may be won (a side routed by fire) before
    any charge. Then the game master ends the campaign and the table plays another, up to ATTEMPTS."""
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    for attempt in range(1, ATTEMPTS + 1):
        fought = await fight(fake, bot, app, table, f"Talavera {attempt}")
        if fought.whole:
            break
        assert not (await fake.slash(table.gm, "campaign end")).ephemeral
    assert fought.restarted, "the battle lasted long enough to restart the bot mid-battle"
    assert fought.whole, (fought.done, fought.said_no[-20:])
    assert fought.pictures >= 2  # a melee comes after a movement phase, which ends with its picture
    await app.store.db.close()


async def fight(fake: FakeDiscord, bot: Any, app: Any, table: Any, name: str) -> Fought:
    """A new campaign at ``table``, its battle set out on the village and played through Discord
    (the bot restarted once, mid-phase) until it is won or MAX_STEPS cards are answered."""
    guild = fake.guild_of(table.channel).id

    def as_caller(user: Any) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    await app.campaign_new(as_caller(table.gm), name, "nsr")
    player: dict[str, FakeUser] = {"French": table.red, "Allied": table.blue}
    for side, user in player.items():
        asked = await app.campaign_join(as_caller(user), side)
        assert asked.decision is not None
        await app.decide(as_caller(table.gm), "approve", asked.decision.decision_id)
        for name, kind, stats in UNITS[side]:
            await app.roster_add(as_caller(user), name, kind, stats=stats)
    side_of = {name: side for side, entries in UNITS.items() for name, _, _ in entries}

    assert not (await fake.slash(table.gm, "map new", scenario="village")).ephemeral
    started = await fake.slash(table.gm, "game start")
    assert "Each side places its units in its deployment zone" in started.text
    outside = await place(fake, table.blue, "Rifles", "46,20")
    assert refusal(outside) == (
        "Rifles in open order, 4″ wide and 3″ deep, facing south (270°), at 46,20 would stand partly outside "
        "Allied's deployment zone."
    )
    for name, at in PLACES.items():
        placed = await place(fake, player[side_of[name]], name, at)
        assert not placed.ephemeral and f"{name} ({side_of[name]}) stands at {at}" in placed.text, placed.text
    await picture_size(fake, placed)  # the deployment is over: the table as set out
    _, state, decision = await battle(app)
    assert state.phase == "movement" and decision is not None
    assert_apart(state)

    result = Fought()
    done, said_no = result.done, result.said_no
    for _ in range(MAX_STEPS):
        game, state, decision = await battle(app)
        if game.status != "active":
            break
        if done and state.phase == "movement" and not result.restarted:
            await bot.restart()  # mid-phase, one order given: the game goes on where it was
            result.restarted = True
            status = await fake.slash(table.gm, "game status")
            assert f"Turn {state.turn} · movement phase" in status.text
            await picture_size(fake, status)
            assert (await battle(app))[1] == state
        if decision is not None:
            answer = await fake.slash(player[decision.decider], "decide", choice=decision.choices[0]["value"])
            assert not answer.ephemeral, answer.text
        elif state.phase == "close_combat":
            answer = await fake.slash(player[state.sides[0]], "nsr melee")
            if answer.ephemeral:
                answer = await fake.slash(player[state.sides[1]], "nsr melee")
            assert not answer.ephemeral, answer.text
            done.add("melee")
            if "moves" in answer.text and "back to" in answer.text:
                done.add("fall back")
        else:
            unit = next(u for u in state.units if u.name == state.active)
            me = player[unit.side]
            for command, options in orders_for(state, unit):
                answer = await fake.slash(me, command, **options)
                if not answer.ephemeral:
                    done.add(command)
                    break
                said_no.append(f"{state.turn} {state.phase} {unit.name} {command} {options}: " + refusal(answer))
        game, after, _ = await battle(app)
        if state.phase == "movement" and after.phase != "movement" and game.status == "active":
            await picture_size(fake, answer)  # the movement phase is over: the picture comes with it
            result.pictures += 1
        if decision is None:
            assert_apart(after)

    return result
