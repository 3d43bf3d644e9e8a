"""A whole Simple Skirmish Game over (fake) Discord: a game master, two players, the real bot process.

The game master opens a campaign; the players ask to join and are approved by button (across a
bot restart) and by /decide; rosters are filled with autocomplete; the game starts with a public
roll-off, survives another restart, and is played through /ssg commands to a winner.

Discord's dice are the OS's secure randomness, which nothing can force, so the game is played to
a winner whatever they say: after one melee, every figure of the side whose turn it is shoots at
short range with clear line of sight (a hit on 5+), turn after turn, until the victory card comes;
the number of turns is bounded. Every answer went through the fake Discord's checks (schemas,
limits, the 3-second rule), and the fixture fails the test on any breach.
"""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.fake_discord import FakeDiscord, FakeUser, InteractionResult, walk_components

RED = {"Rossi": "rifle", "Ada": "rifle", "Cy": "smg", "Dee": "pistol", "Eli": "rifle", "Fay": "rifle"}
BLUE = {"Big Jim": "smg", "Bo": "pistol", "Bert": "rifle", "Bill": "rifle", "Ben": "rifle", "Bud": "rifle"}
DIE = re.compile(r"^🎲 d6 → \*\*([1-6])\*\* — (.+)$")
SHOT = re.compile(r"^(?P<shooter>.+?) fires at (?P<target>.+?)(?: \(die \d+ of \d+\))?: (?P<natural>[1-6]), needs 5: ")
#: Each side shoots with at least three figures, a hit on 5+, four hits win: 40 player turns are
#: far more than any sequence of dice needs (and the loop fails plainly if they ever ran out).
MAX_PLAYER_TURNS = 40


def one_sentence(text: str) -> bool:
    text = text.strip()
    return len(re.findall(r"[.!?](?=\s|$)", text)) == 1 and text.endswith((".", "!", "?"))


def refusal(result: InteractionResult, *, one: bool = True) -> str:
    """The words of an error reply: ephemeral, pinging nobody, and (unless ``one`` is False) one sentence."""
    assert result.type == 4, result
    assert result.ephemeral, f"an error shown to everyone: {result!r}"
    [embed] = result.embeds
    assert embed["title"] == "Not done"
    assert not result.message.pings  # type: ignore[union-attr]
    assert not one or one_sentence(embed["description"]), embed["description"]
    return embed["description"]


def dice_lines(result: InteractionResult) -> list[tuple[int, str]]:
    """Each die of the public dice card: (value, reason)."""
    assert not result.ephemeral, f"dice must be public: {result!r}"
    [field] = result.message.field_values("Dice")  # type: ignore[union-attr]
    lines = []
    for line in field.splitlines():
        match = DIE.match(line)
        assert match, f"not a die line: {line!r}"
        lines.append((int(match[1]), match[2]))
    return lines


def casualties(result: InteractionResult) -> list[str]:
    return [t.removeprefix("☠ Casualty: ") for t in result.titles if t.startswith("☠ Casualty: ")]


def victory(result: InteractionResult) -> str | None:
    for title in result.titles:
        match = re.fullmatch(r"🏆 (\w+) wins!", title)
        if match:
            return match[1].lower()
    return None


async def pick(fake: FakeDiscord, user: FakeUser, command: str, option: str, wanted: str, **others: Any) -> str:
    """Fill ``option`` as a player does: type the start of ``wanted``, take it from the suggestions."""
    suggested = await fake.autocomplete(user, command, focused=option, value=wanted[:2], **others)
    assert suggested.type == 8 and suggested.elapsed is not None
    values = [c["value"] for c in suggested.choices or []]
    assert wanted in values, f"{wanted!r} not among the suggestions {values} for {command} {option}"
    assert all(wanted[:2].casefold() in c["name"].casefold() for c in suggested.choices or [])
    return wanted


async def test_two_players_and_a_game_master_play_ssg_to_a_winner(fake: FakeDiscord, bot: Any) -> None:
    gina, rita, bob = fake.add_user("Gina"), fake.add_user("Rita"), fake.add_user("Bob")
    stranger = fake.add_user("Sam")
    player = {"red": rita, "blue": bob}
    roster = {"red": RED, "blue": BLUE}

    # --- the game master opens a campaign ------------------------------------------------------
    started = await fake.slash(gina, "campaign new", name="Iron Coast", ruleset="ssg", battlefield="table")
    assert started.type == 4 and not started.ephemeral and "Iron Coast" in started.text

    sides = await fake.autocomplete(rita, "campaign join", focused="side", value="")
    assert [c["value"] for c in sides.choices or []] == ["red", "blue"]

    # --- players ask to join; the game master answers by button (after a restart) and by /decide --
    asked = await fake.slash(rita, "campaign join", side=await pick(fake, rita, "campaign join", "side", "red"))
    assert not asked.ephemeral and "Rita asks to play **red**" in asked.text
    assert asked.message.pings.users == {gina.id}  # type: ignore[union-attr]
    approve, refuse = asked.message.custom_ids  # type: ignore[union-attr]
    assert re.fullmatch(r"decision:\d+:0", approve) and re.fullmatch(r"decision:\d+:1", refuse)
    assert refusal(await fake.click(bob, asked, approve)) == "This is not your decision."
    await bot.restart()  # the buttons outlive the bot: nothing about them lives in its memory
    decided = await fake.click(gina, asked, approve)
    assert decided.type == 7 and decided.message is asked.message  # the request is edited in place
    assert asked.content == "Decided by Gina: **Approve**" and asked.components == []
    [welcome] = await decided.wait_followups(1)
    assert "Rita now plays **red**" in welcome.text and welcome.pings.users == {rita.id}

    asked = await fake.slash(bob, "campaign join", side=await pick(fake, bob, "campaign join", "side", "blue"))
    offered = await fake.autocomplete(gina, "decide", focused="choice", value="app")
    assert [c["value"] for c in offered.choices or []] == ["approve"]
    assert "Bob asks to play blue" in offered.choices[0]["name"]  # type: ignore[index]
    answered = await fake.slash(gina, "decide", choice="approve")
    assert "Bob now plays **blue**" in answered.text and answered.message.pings.users == {bob.id}  # type: ignore[union-attr]
    stale = asked.message.custom_ids[0]  # type: ignore[union-attr]  # Bob's request kept its buttons
    assert refusal(await fake.click(gina, asked, stale)) == "That decision has already been made."

    # --- rosters: six figures a side, weapon and side filled from the suggestions --------------
    kinds = await fake.autocomplete(rita, "roster add", focused="kind", value="", name="Rossi")
    assert {c["value"] for c in kinds.choices or []} == {"rifle", "pistol", "smg"}
    narrowed = await fake.autocomplete(rita, "roster add", focused="kind", value="S", name="Rossi")
    assert {c["value"] for c in narrowed.choices or []} == {"pistol", "smg"}  # contains "s", any case
    for side, figures in roster.items():
        user = player[side]
        own_side = await pick(fake, user, "roster add", "side", side, name="x", kind="rifle")
        for name, kind in figures.items():
            weapon = await pick(fake, user, "roster add", "kind", kind, name=name)
            added = await fake.slash(user, "roster add", name=name, kind=weapon, side=own_side)
            assert added.titles == ["Recruited"] and not added.ephemeral
    listed = await fake.slash(bob, "roster list")
    assert listed.ephemeral and "Red (6)" in listed.text and "Blue (6)" in listed.text

    assert refusal(await fake.slash(rita, "game start")) == "Only the game master may start a game."

    # --- the game starts: a public roll-off decides who goes first ------------------------------
    start = await fake.slash(gina, "game start")
    assert not start.ephemeral
    roll_off = dice_lines(start)
    assert len(roll_off) >= 2 and len(roll_off) % 2 == 0
    assert all(reason in ("Roll-off: red", "Roll-off: blue") for _, reason in roll_off)
    first = re.search(r"(red|blue) goes first", start.text)[1]  # type: ignore[index]
    *_, (red_last, _), (blue_last, _) = roll_off
    assert (red_last > blue_last) == (first == "red")
    assert start.message.pings.users == {player[first].id} and not start.message.pings.everyone  # type: ignore[union-attr]

    # --- refusals: ephemeral, one sentence, nothing changed ------------------------------------
    second = "blue" if first == "red" else "red"
    assert refusal(await fake.slash(player[second], "ssg next")) == f"It is {first}'s turn."
    unknown = refusal(await fake.slash(player[first], "ssg move", figure="Zed", distance=1.0))
    assert unknown == "There is no figure called “Zed” in this game."
    assert "not in this campaign" in refusal(await fake.slash(stranger, "ssg next"))
    early = refusal(
        await fake.slash(
            player[first],
            "ssg shoot",
            shooter=next(iter(roster[first])),
            target=next(iter(roster[second])),
            range=5.0,
            los="clear",
        )
    )
    assert "shooting phase" in early

    # --- the bot goes down mid-battle and comes back: the game goes on where it was -------------
    await bot.restart()
    assert len(fake.requests_to("PUT", r"/applications/\d+/commands")) == 1  # no needless re-sync
    assert len(fake.identifies) == bot.starts == 3
    board = await fake.slash(gina, "game status")
    assert f"Turn 1 · {first} · movement phase" in board.text

    # --- who may still act is a pick away, under the start's "your move", after the restart too ---
    [menu] = [c for c in walk_components(start.message.components) if c.get("custom_id") == "ready:ssg"]  # type: ignore[union-attr]
    assert [o["value"] for o in menu["options"]] == list(roster[first])
    chosen = list(roster[first])[-1]
    shown = await fake.click(player[first], start, "ready:ssg", values=[chosen])
    assert shown.ephemeral and not shown.message.pings  # type: ignore[union-attr]
    written = f'"{chosen}"' if " " in chosen else chosen
    assert (
        f"`/ssg move figure:{written} …`" in shown.text and f"`/ssg shoot shooter:{written} target:… …`" in shown.text
    )

    # --- play: turn after turn until one side has lost four figures ---------------------------
    alive = {side: list(figures) for side, figures in roster.items()}
    side_of = {name: side for side, figures in roster.items() for name in figures}
    winner: str | None = None
    active, melee_fought = first, False
    dice_seen = 0

    def settle(result: InteractionResult) -> str | None:
        for name in casualties(result):
            alive[side_of[name]].remove(name)
        return victory(result)

    for _turn in range(1, MAX_PLAYER_TURNS + 1):
        me, foe = player[active], ("blue" if active == "red" else "red")

        if not melee_fought:  # movement: one figure charges into contact, one more moves
            charger = await pick(fake, me, "ssg move", "figure", alive[active][0])
            enemy = await pick(fake, me, "ssg move", "contact", alive[foe][0], figure=charger)
            moved = await fake.slash(me, "ssg move", figure=charger, distance=3.5, contact=enemy)
            assert not moved.ephemeral and "comes within" in moved.text and "Dice" not in moved.text
            walker = await pick(fake, me, "ssg move", "figure", alive[active][1])
            assert "0.5″ left" in (await fake.slash(me, "ssg move", figure=walker, distance=3.5)).text
            assert "melee phase" in (await fake.slash(me, "ssg next")).text
            melee = await fake.slash(me, "ssg melee", fighter=charger, opponent=enemy)
            rolls = dice_lines(melee)
            assert len(rolls) % 2 == 0 and rolls[0][1] == f"{charger}: melee against {enemy}"
            assert rolls[1][1] == f"{enemy}: melee against {charger}"
            loser = enemy if rolls[-2][0] > rolls[-1][0] else charger
            assert casualties(melee) == [loser]
            assert f"{loser} ({side_of[loser]}) is out of the fight" in melee.text
            dice_seen += len(rolls)
            winner = settle(melee)
            melee_fought = True
            assert "All melees are resolved: shoot with /ssg shoot" in melee.text  # the first shot opens shooting
        else:
            assert "no melee" in (await fake.slash(me, "ssg next")).text

        for shooter in list(alive[active]):  # shooting: everyone fires at short range, clear LOS
            if winner or not alive[foe]:
                break
            if shooter not in alive[active]:
                continue
            await pick(fake, me, "ssg shoot", "shooter", shooter)
            target = await pick(fake, me, "ssg shoot", "target", alive[foe][0], shooter=shooter)
            shot = await fake.slash(me, "ssg shoot", shooter=shooter, target=target, range=5.0, los="clear")
            rolls = dice_lines(shot)
            naturals = [int(m["natural"]) for m in map(SHOT.match, shot.embeds[0]["description"].splitlines()) if m]
            assert [value for value, _ in rolls] == naturals
            assert all(
                reason.startswith(f"{shooter}: shot ") and reason.endswith(f"at {target}") for _, reason in rolls
            )
            assert len(rolls) <= (3 if roster[active][shooter] == "smg" else 1)
            dice_seen += len(rolls)
            winner = settle(shot)
        if winner:
            break

        passed = await fake.slash(me, "ssg next")
        assert passed.message.pings.users == {player[foe].id}  # type: ignore[union-attr]
        assert f"{foe}: your move" in passed.content
        active = foe
    else:
        raise AssertionError(f"no winner after {MAX_PLAYER_TURNS} player turns: {alive}")

    # --- the end: victory card, game over, status and log ----------------------------------------
    loser_side = "blue" if winner == "red" else "red"
    assert len(roster[loser_side]) - len(alive[loser_side]) == 4
    assert dice_seen >= 4  # a die at least for each of the four who fell
    over = refusal(await fake.slash(player[winner], "ssg next"), one=False)
    assert over.startswith(f"The game is over: {winner} won.")

    status = await fake.slash(gina, "game status")
    assert not status.ephemeral and f"Game over: {winner} won" in status.text
    for side in ("red", "blue"):
        [listing] = status.message.field_values(side.title())  # type: ignore[union-attr]
        for name in roster[side]:
            out = f"~~{name}~~ — removed" in listing
            assert out == (name not in alive[side]), (name, listing)

    log = await fake.slash(rita, "game log", count=5)
    assert log.ephemeral and "`/ssg shoot shooter:" in log.text and "wins:" in log.text

    # --- and every message kept to the platform -----------------------------------------------
    public = fake.messages_in(ephemeral=False)
    assert public and all(not m.pings.everyone and not m.pings.roles for m in public)
    assert {u for m in public for u in m.pings.users} == {gina.id, rita.id, bob.id}  # never Sam, never all
    bodies = fake.validated["CreateMessageInteractionCallbackRequest"] + fake.validated["IncomingWebhookRequestPartial"]
    assert bodies >= len(fake.messages) and fake.validated["UpdateMessageInteractionCallbackRequest"] == 1
    assert fake.validated["ApplicationCommandAutocompleteCallbackRequest"] >= 20
    slowest = max(i.responded_at - i.created for i in fake.interactions.values() if i.responded_at)
    assert slowest < 3
