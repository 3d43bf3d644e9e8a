"""A whole SSG battle on the crossroads through the loopback Discord, with the real bot process:
the game master drafts a shipped map and starts the battle, both sides deploy, the figures walk up
the lanes on moves the bot measures, a move through the farmhouse and a shot through the north
hedge are refused privately, the bot restarts mid-battle, the picture comes with the end of each
movement phase, and the sides shoot at what they can see until one has lost four figures.

Discord's dice are secure randomness nothing can force, so the shooting goes on turn after turn
(bounded) until the victory card comes."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.app.replies import Caller
from tests.e2e.attachments import picture_of
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.seeding import new_table, seeded_app
from tests.e2e.test_ssg_game import casualties, refusal, victory

RED = ["Rossi", "Garcia", "Chen", "Dubois", "Evans", "Fox"]
BLUE = ["Big Jim", "Slim", "Doc", "Tex", "Hank", "Kid"]
#: The lane each walker keeps to (x, inches); deploy sets both sides out in these columns.
LANES = {"Rossi": 17.2, "Garcia": 18.8, "Chen": 15.8, "Dubois": 20.2, "Evans": 14.2}
LANES |= {"Big Jim": 17.2, "Slim": 18.8, "Doc": 15.8, "Tex": 20.2, "Hank": 14.2}
#: Evans and Hank stand either side of the north hedge all battle: they only ever try each other.
PAIRED = {"Evans": "Hank", "Hank": "Evans"}
WALKING_TURNS = 6
MAX_PLAYER_TURNS = 40


async def picture_size(fake: FakeDiscord, result: InteractionResult) -> tuple[int, int]:
    data = await picture_of(fake, result)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data)).size


async def test_a_battle_on_the_crossroads_to_a_winner_across_a_restart(fake: FakeDiscord, bot: Any) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    guild = fake.guild_of(table.channel).id

    def as_caller(user: Any) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    await app.campaign_new(as_caller(table.gm), "Crossroads", "ssg")
    for user, side, names in ((table.red, "red", RED), (table.blue, "blue", BLUE)):
        asked = await app.campaign_join(as_caller(user), side)
        await app.decide(as_caller(table.gm), "approve", asked.decision.decision_id)
        for name in names:
            await app.roster_add(as_caller(user), name, "rifle")
    await app.store.db.close()
    player = {"red": table.red, "blue": table.blue}
    side_of = dict.fromkeys(RED, "red") | dict.fromkeys(BLUE, "blue")
    alive = {"red": list(RED), "blue": list(BLUE)}

    assert not (await fake.slash(table.gm, "map new", scenario="crossroads")).ephemeral
    started = await fake.slash(table.gm, "game start")
    active = "red" if "red goes first" in started.text else "blue"
    assert "red deploys" in (await fake.slash(table.red, "map deploy")).text
    deployed = await fake.slash(table.blue, "map deploy")
    assert "Every figure is on the map" in deployed.text
    y = dict.fromkeys(RED, 2.2) | dict.fromkeys(BLUE, 34.2)
    step = {"red": 4.0, "blue": -4.0}
    refusals: list[str] = []
    winner = None

    for turn in range(MAX_PLAYER_TURNS):
        me, foe = player[active], ("blue" if active == "red" else "red")
        if turn == 2:
            await bot.restart()  # mid-battle: the game goes on where it was
            status = await fake.slash(table.gm, "game status")
            assert f"{active} · movement phase" in status.text
            await picture_size(fake, status)
        if turn < WALKING_TURNS:
            for name in [n for n in LANES if side_of[n] == active and n in alive[active]]:
                y[name] = round(y[name] + step[active], 1)
                moved = await fake.slash(me, "ssg move", figure=name, to=f"{LANES[name]},{y[name]}")
                assert f"{name} moves 4.0″ to {LANES[name]:.1f},{y[name]:.1f}" in moved.text, moved.embeds
            if active == "blue" and turn < 2:
                through = await fake.slash(me, "ssg move", figure="Kid", to="24,27")
                said = refusal(through)
                assert said == "Kid cannot go that way: the path crosses the farmhouse, which cannot be crossed."
        ended = await fake.slash(me, "ssg next")
        assert "shooting phase" in ended.text
        width, _ = await picture_size(fake, ended)  # the table as the movement phase left it
        assert 1100 <= width <= 1300
        for shooter in list(alive[active]):
            targets = [PAIRED[shooter]] if shooter in PAIRED else [t for t in alive[foe] if t not in PAIRED]
            for target in [t for t in targets if t in alive[foe]]:
                shot = await fake.slash(me, "ssg shoot", shooter=shooter, target=target)
                if shot.ephemeral:
                    refusals.append(refusal(shot))
                    continue
                assert f"{shooter} fires at {target} (" in shot.text
                for name in casualties(shot):
                    alive[side_of[name]].remove(name)
                winner = victory(shot)
                break
            if winner:
                break
        if winner:
            break
        await fake.slash(me, "ssg next")
        active = foe

    assert winner in ("red", "blue"), refusals
    assert len(alive["red" if winner == "blue" else "blue"]) == 2
    assert all("out of range" in r or "no line of sight" in r for r in refusals), refusals
    hidden = [r for r in refusals if r.startswith(("Evans has no line of sight to Hank", "Hank has no line"))]
    assert hidden and "(blocked: the north hedge" in hidden[0], refusals
