"""A Sharpe skirmish on the shipped farm map through the loopback Discord, with the real bot process:
the game master drafts the map and starts the battle, both sides deploy (the last deployment rolls
the order of movement), and each man in turn runs at the nearest enemy, shoots at whom he can see or
attacks the man his base touches; the defender's choice is answered by button. A path through the
farmhouse is refused privately and moves nobody, the bot restarts mid-battle, and the answers that
end a man's turn carry the battlefield's picture, decoded here and measured.

Discord's dice are secure randomness nothing can force, so the battle goes on bound after bound
(bounded: at the limit the French concede) until a side has won; the test asserts only what holds
whatever they fall (how many bounds, shots and pictures there are is theirs)."""

from __future__ import annotations

import hashlib
import io
from typing import Any

from PIL import Image
from sqlalchemy import select

from bot.app.replies import Caller
from bot.store.schema import DecisionRecord, Game
from rules import get_engine
from rules.battlefield import point_of
from rules.geometry import centre_distance
from rules.sharpe import onmap
from rules.sharpe.state import Character, SharpeState
from tests.e2e.attachments import picture_of, sent_files
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.seeding import new_table, seeded_app
from tests.e2e.test_ssg_game import refusal
from tests.orm import orm

BRITISH = [
    ("Sharpe", "rifle_officer", "I=6 D=5 S=5 C=6 F=10"),
    ("Harper", "rifle_sergeant", "I=5 D=4 S=6 C=5 F=10"),
    ("Harris", "rifleman", "I=4 D=4 S=3 C=3 F=9"),
]
FRENCH = [
    ("Leroux", "officer", "I=5 D=4 S=4 C=5 F=7"),
    ("Dubois", "voltigeur", "I=4 D=3 S=3 C=3"),
    ("Martin", "voltigeur", "I=3 D=3 S=3 C=3"),
]
MAX_BOUNDS = 10
MAX_STEPS = 400
#: Refusals a man's turn may meet, each a sentence the bot says: what the map or the rules forbid
#: this time (the plan below shoots first and asks after).
EXPECTED = (
    "cannot see",
    "is out of range",
    "no loaded firearm",
    "carries no firearm",
    "wound stops him moving",
    "only crawl",
    "has fired already",
    "parried or riposted an attack this bound",
    "attacked in melee this bound",
    "path runs through",
    "no way round",
    "no room there",
    "would end his move on the fallen",
    "cannot go that way",
    "cannot stop",
    "movement left",
    "may only defend",
    "is on the ground",
    "got up this bound",
    "has reached an enemy",
    "tried to rise",
    "nobody shoots and attacks",
    "made his attack this bound",
    "cannot attack",
    # A draw's lock outlives a recoil that parts the bases (a shot's wound moves one man an inch):
    # the other can then neither move nor attack; see test_sharpe_map_random's strict xfail.
    "is locked in melee with",
)


async def picture_size(fake: FakeDiscord, result: InteractionResult) -> tuple[int, int]:
    data = await picture_of(fake, result)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.size


def nearest(state: SharpeState, me: Character) -> Character | None:
    """The nearest enemy still standing on the map, centre to centre."""
    field = state.field
    assert field is not None
    here = point_of(field, me.name)
    standing = [
        c
        for c in state.characters
        if c.side != me.side and not c.out and not c.unconscious and c.name in field.positions
    ]
    if here is None or not standing:
        return None
    return min(standing, key=lambda c: centre_distance(here, point_of(field, c.name)))  # type: ignore[arg-type]


async def test_a_sharpe_skirmish_on_the_farm_through_discord_across_a_restart(fake: FakeDiscord, bot: Any) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    guild = fake.guild_of(table.channel).id

    def as_caller(user: Any) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    await app.campaign_new(as_caller(table.gm), "The Farm", "sharpe")
    for user, side in ((table.red, "british"), (table.blue, "french")):
        asked = await app.campaign_join(as_caller(user), side)
        assert asked.decision is not None
        await app.decide(as_caller(table.gm), "approve", asked.decision.decision_id)
    player = {"british": table.red, "french": table.blue}
    for user, men in ((table.red, BRITISH), (table.blue, FRENCH)):
        for name, kind, stats in men:
            added = await fake.slash(user, "roster add", name=name, kind=kind, stats=stats)
            assert not added.ephemeral, added.text
    engine = get_engine("sharpe")

    async def game() -> tuple[Game, SharpeState, DecisionRecord | None]:
        async with orm(app.store.db) as s:
            row = await s.scalar(select(Game).order_by(Game.id.desc()))
            decision = await s.scalar(
                select(DecisionRecord).where(DecisionRecord.status == "open").order_by(DecisionRecord.id.desc())
            )
        assert row is not None
        return row, engine.load_state(row.state), decision

    assert not (await fake.slash(table.gm, "map new", scenario="farm")).ephemeral
    started = await fake.slash(table.gm, "game start")
    assert not started.ephemeral and "Place your characters" in started.text
    assert "british deploys" in (await fake.slash(table.red, "map deploy")).text
    deployed = await fake.slash(table.blue, "map deploy")
    assert "the order of movement is rolled" in deployed.text and deployed.field_values("Dice")
    assert 1100 <= (await picture_size(fake, deployed))[0] <= 1300

    _, state, _ = await game()
    first = state.active
    assert first is not None and state.field is not None
    mover = next(c for c in state.characters if c.name == first)
    before = dict(state.field.positions)
    x = state.field.positions[first][0]  # off the track first, clear of his comrades, then at the farmhouse
    through = await fake.slash(player[mover.side], "sharpe move", via=f"{x},20.5", to="23.5,27")
    assert refusal(through) == f"{first} cannot go that way: the path crosses the farmhouse, which cannot be crossed."
    _, state, _ = await game()
    assert state.field is not None and state.field.positions == before, "a refused path moves nobody"

    await bot.restart()  # mid-battle, whatever the dice did so far: the game goes on where it was
    status = await fake.slash(table.gm, "game status")
    assert f"Bound {state.bound}" in status.text
    shown = await fake.slash(table.gm, "map show", focus=state.active)
    assert (await picture_size(fake, shown))[0] >= 1100 and not shown.ephemeral

    last: InteractionResult = deployed
    acted: set[tuple[int, str]] = set()
    refusals: list[str] = []
    drawn: set[str] = set()
    pictured: set[str] = set()  # the men's places each picture shows
    shots = attacks = pictures = by_button = decisions = 0
    conceded = False
    for _ in range(MAX_STEPS):
        row, state, decision = await game()
        if row.status != "active" or state.over:
            break
        if state.bound > MAX_BOUNDS and not conceded:
            conceded = True
            last = await fake.slash(table.blue, "sharpe concede", confirm=True, side="french")
            continue
        if decision is not None:
            decisions += 1
            decider = player[decision.decider]
            custom_id = f"decision:{decision.id}:0"
            if last.message is not None and custom_id in last.message.custom_ids:
                last = await fake.click(decider, last, custom_id)
                by_button += 1
            else:
                last = await fake.slash(decider, "decide", choice=decision.choices[0]["value"])
            continue
        me = next(c for c in state.characters if c.name == state.active)
        user = player[me.side]
        key = (state.bound, me.name)
        foe = nearest(state, me)
        if key in acted or foe is None:
            last = await fake.slash(user, "sharpe done")
            _, after, _ = await game()
            if after.bound > state.bound and not after.over:  # the bound closed: its picture comes with it
                assert any(t.endswith("the battlefield") for t in last.titles), last.titles
                width, height = await picture_size(fake, last)
                assert 1100 <= width <= 1300 and height > width * 0.75
                drawn.add(hashlib.sha256(sent_files(fake, last)["map.png"]).hexdigest())
                assert after.field is not None
                pictured.add(repr(sorted(after.field.positions.items())))
                pictures += 1
            continue
        acted.add(key)
        if me.down:
            rose = await fake.slash(user, "sharpe rise")
            if rose.ephemeral:
                refusals.append(refusal(rose))
            continue
        touching = onmap.touching_enemies(engine.tables, state, me)
        if touching:
            last = await fake.slash(user, "sharpe attack", defender=touching[0].name)
        else:
            last = await fake.slash(user, "sharpe shoot", target=foe.name)
            if last.ephemeral:
                refusals.append(refusal(last))
                last = await fake.slash(user, "sharpe move", pace="run", toward=foe.name)
            else:
                assert f"at {foe.name} (" in last.text and "measured" in last.text, last.text
                shots += 1
                continue
        if last.ephemeral:
            refusals.append(refusal(last))
            continue
        if "attacks" in last.text:
            attacks += 1
        elif "reaches" in last.text:
            _, state, _ = await game()
            if onmap.touching_enemies(engine.tables, state, me):
                last = await fake.slash(user, "sharpe attack", defender=foe.name)
                if last.ephemeral:
                    refusals.append(refusal(last))
                else:
                    attacks += 1

    row, state, _ = await game()
    assert row.status != "active" or state.over, "a side won or conceded within the bound limit"
    assert state.winner in ("british", "french"), state.winner
    # What holds on any dice: a battle that was not conceded was won by shots or blows; each bound's
    # picture differs from the others where the men stand elsewhere; a decision the last answer
    # offered a button for was answered by it.
    assert conceded or shots + attacks >= 1, (shots, attacks, refusals)
    assert len(drawn) >= len(pictured), "the picture follows the battle: men move, fall and face about"
    unexpected = [r for r in refusals if not any(words in r for words in EXPECTED)]
    assert not unexpected, unexpected
    assert decisions == 0 or by_button >= 1
    log = await fake.slash(table.red, "game log")
    assert log.ephemeral and "Log of battle 1" in log.text and "/sharpe " in log.text
    await app.store.db.close()
