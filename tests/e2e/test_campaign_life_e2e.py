"""A campaign's life, for every ruleset, through the loopback Discord with the real bot process.

One test, run once per ruleset (ssg, medieval, sharpe, nsr, yasg), plays the whole round of the
seven features of issue 8 as a table would:

* ``/campaign new``; two players ask to join, the game master approves one by button and one by
  ``/decide``;
* each player brings a side as a YAML file (``/roster import``, attached); the game master lays
  a house rule over the tables (``/campaign rules set``), which a player reads back
  (``/campaign rules show``, with the game master's own file attached);
* ``/game start``; the game master rolls in secret; a player asks ``/odds`` of one of the
  ruleset's real actions (privately; exact or simulated, and it says which), then plays it and a
  few more;
* ``/campaign deadline`` (a deadline "hour" lasts 30 seconds here, so that the reminder's quarter
  of the half hour holds a look of the scheduler on a loaded machine): the waiting player is
  reminded, the game master pinged at the deadline; the deadline is then set long;
* ``/game log`` (the secret roll kept back from the players), the battle's end (SSG is played to a
  winner, the others are ended by the game master): a post-battle card per side naming every
  figure, whose note becomes the last line of that figure's history (``/roster export``,
  ``/roster show``);
* ``/game report`` (posted for everyone, a ``battle-<number>.md`` file with the secret roll revealed);
  ``/campaign export``, then ``/campaign import`` of that file into another channel, where the
  rosters, their history and the house rules are found again.

Discord's dice are the secure ones, so every assertion holds whatever they roll: who goes first,
which card is turned, which character acts are read from the bot's own answers.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pytest
import yaml

from tests.e2e.attachments import AttachmentHost, Upload, sent_file_names, sent_files, slash_with_files
from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionResult

HOUR_SECONDS = 30.0
pytestmark = pytest.mark.bot_env(SKIRMISH_GM_HOUR_SECONDS=str(HOUR_SECONDS))

SECRET_REASON = "does the ford flood tonight"
DIE = re.compile(r"^🎲 d(\d+) → \*\*(\d+)\*\* — (.+)$")
AFTER_LINE = re.compile(r"^(?P<mark>☠ |🛌 )?\*\*(?P<name>.+?)\*\* — (?P<note>.+)$")
STATUS_OF_MARK = {"☠ ": "dead", "🛌 ": "resting", None: "active"}
EXACT = re.compile(r"^exact: every one of [\d,]+ dice sequences enumerated$")
SIMULATED = re.compile(r"^by simulation: [\d,]+ runs with random dice, each chance within ±\d+ points \(95%\)$")
ODDS_LINE = re.compile(r"^[<>]?\d+(\.\d)?% — .+$")


# --- answers, read the way a player reads them -------------------------------------------------


def embed(result: InteractionResult | FakeMessage, title: str) -> dict[str, Any]:
    """The one embed of ``result`` with this title (exactly one)."""
    embeds = [e for m in _messages(result) for e in m.embeds if e.get("title") == title]
    assert len(embeds) == 1, f"{len(embeds)} embeds titled {title!r} in {_titles(result)}"
    return embeds[0]


def _messages(result: InteractionResult | FakeMessage) -> list[FakeMessage]:
    return result.messages if isinstance(result, InteractionResult) else [result]


def _titles(result: InteractionResult | FakeMessage) -> list[str]:
    return [e.get("title") or "" for m in _messages(result) for e in m.embeds]


def public(result: InteractionResult) -> InteractionResult:
    assert result.type in (4, 5, 7), result
    assert not result.ephemeral, f"meant for the whole table: {result!r}"
    assert "Not done" not in result.titles, result.text
    return result


def private(result: InteractionResult) -> InteractionResult:
    assert result.type in (4, 5), result
    assert result.ephemeral, f"meant only for its asker: {result!r}"
    assert "Not done" not in result.titles, result.text
    return result


def dice_lines(result: InteractionResult | FakeMessage) -> list[tuple[int, int, str]]:
    """Every die of the answer's dice fields: (faces, value, reason), each value within its faces."""
    lines = []
    for message in _messages(result):
        for value in message.field_values("Dice"):
            for line in value.splitlines():
                if line.startswith("🂠"):  # a card turned (NSR)
                    continue
                match = DIE.match(line)
                assert match, f"not a die line: {line!r}"
                faces, rolled = int(match[1]), int(match[2])
                assert 1 <= rolled <= faces, line
                lines.append((faces, rolled, match[3]))
    return lines


def decision_buttons(message: FakeMessage) -> list[str]:
    return [c for c in message.custom_ids if c.startswith("decision:")]


# --- the rulesets --------------------------------------------------------------------------------


@dataclass
class Life:
    """One table: the fake Discord, the file host, the game master and the two players."""

    fake: FakeDiscord
    cdn: AttachmentHost
    case: Case
    gm: FakeUser
    player: dict[str, FakeUser]
    started: InteractionResult | None = None
    last: InteractionResult | FakeMessage | None = None
    commands: list[str] = field(default_factory=list)  # the ruleset commands played, for the log and report
    ended: InteractionResult | None = None  # the answer holding the post-battle cards

    def other(self, side: str) -> str:
        return next(s for s in self.case.sides if s != side)

    def user_of(self, side: str) -> FakeUser:
        return self.player[side]

    def side_of(self, user_id: int) -> str:
        return next(s for s, u in self.player.items() if u.id == user_id)

    async def act(self, user: FakeUser, command: str, **options: Any) -> InteractionResult:
        """A ruleset action: public, with its card titled "<Side> · <action>", by ``user``."""
        result = public(await self.fake.slash(user, command, **options))
        side = self.side_of(user.id)
        action = command.split()[1]
        assert embed(result, f"{side.title()} · {action}")["footer"]["text"] == f"by {user.display_name}"
        self.commands.append("/" + command)
        self.last = result
        return result

    async def odds(self, user: FakeUser, line: str, method: str) -> dict[str, Any]:
        """``/odds action:line``: private, every outcome a percentage, the method said in the footer.

        ``method``: exact, simulation, or either: enumerating thousands of dice sequences falls back
        to simulation past a time budget, which a busy machine may reach."""
        result = private(await self.fake.slash(user, "odds", action=line))
        card = embed(result, "Odds before you roll")
        first, *outcomes = card["description"].splitlines()
        assert first.startswith(f"`/{line.split()[0]} {line.split()[1]}"), first
        assert outcomes and all(ODDS_LINE.match(o) for o in outcomes), outcomes
        total = sum(float(o.split("%")[0].lstrip("<>")) for o in outcomes)
        # every outcome is listed or lumped into "other", each rounded (to 0.1% if exact, else whole)
        assert abs(total - 100) <= 0.6 * len(outcomes), outcomes
        footer = card["footer"]["text"]
        allowed = {"exact": [EXACT], "simulation": [SIMULATED], "either": [EXACT, SIMULATED]}[method]
        assert any(p.match(footer) for p in allowed), footer
        [expected] = [f["value"] for f in card["fields"] if f["name"] == "Expected casualties"]
        assert re.fullmatch(r"\d+\.\d\d", expected)
        return card

    async def answer_by_button(self, message: FakeMessage, index: int = 0) -> FakeMessage:
        """The player the decision pings presses one of its buttons; the outcome follows."""
        [decider] = message.pings.users
        user = next(u for u in self.player.values() if u.id == decider)
        button = next(c for c in decision_buttons(message) if c.endswith(f":{index}"))
        pressed = await self.fake.click(user, message, button)
        assert pressed.type == 7 and pressed.message is message  # the question is edited in place
        assert message.content.startswith(f"Decided by {user.display_name}: **") and message.components == []
        [outcome] = await pressed.wait_followups(1)
        assert not outcome.ephemeral
        self.last = outcome
        return outcome


Player = Callable[[Life], Awaitable[None]]


@dataclass
class Case:
    slug: str
    title: str  # the ruleset's name as the bot says it
    sides: tuple[str, str]
    roster: dict[str, bytes]  # each side's roster file, as its player writes it
    figures: dict[str, list[str]]
    house: bytes
    house_changes: list[str]  # what the bot says the house rules change
    play: Player
    campaign: str = "Campaign"
    finish: Player | None = None  # how the battle ends, if not by /game end
    entries: str = "figures"  # what the bot calls the roster's entries when it counts them


async def play_ssg(life: Life) -> None:
    """A figure moves; nobody is in contact, so no melee; the odds of an SMG's burst (exact, unless
    the time budget of /odds runs out first on a loaded machine)."""
    started = life.started
    assert started is not None
    first = re.search(r"\b(red|blue) goes first", started.text)[1]  # type: ignore[index]
    assert started.message.pings.users == {life.user_of(first).id}  # type: ignore[union-attr]
    me = life.user_of(first)
    moved = await life.act(me, "ssg move", figure=life.case.figures[first][0], distance=2.0)
    assert "2″ left" in moved.text
    skipped = await life.act(me, "ssg next")
    assert "there is no melee" in skipped.text and f"{first} · shooting phase" in skipped.text
    smg = {"red": "Cy", "blue": "Big Jim"}[first]
    target = life.case.figures[life.other(first)][0]
    card = await life.odds(me, f'ssg shoot shooter:"{smg}" target:"{target}" range:5 los:clear', "either")
    if card["footer"]["text"].startswith("exact"):  # unless a loaded machine ran out the time budget first
        assert card["footer"]["text"] == "exact: every one of 216 dice sequences enumerated"  # 3 dice of 6 faces
    assert f"— {target} out" in card["description"] and "— no effect" in card["description"]


async def finish_ssg(life: Life) -> None:
    """Each figure shoots, turn after turn, until a side has lost both its figures (the house rule:
    two a side, two removals win): the winning shot brings the post-battle cards."""
    first = re.search(r"\b(red|blue) goes first", life.started.text)[1]  # type: ignore[index,union-attr]
    alive = {side: list(names) for side, names in life.case.figures.items()}
    side, winner = first, None
    shooting = True  # play_ssg left the first side in its shooting phase
    for _ in range(40):  # player turns: far more than any dice need (two hits on one side end it)
        me, foe = life.user_of(side), life.other(side)
        if not shooting:
            assert "no melee" in (await life.act(me, "ssg next")).text
        for shooter in list(alive[side]):
            if winner or not alive[foe]:
                break
            target = alive[foe][0]
            shot = await life.act(me, "ssg shoot", shooter=shooter, target=target, range=5.0, los="clear")
            rolls = dice_lines(shot)
            assert 1 <= len(rolls) <= (3 if shooter in ("Cy", "Big Jim") else 1)
            assert all(faces == 6 and reason.startswith(f"{shooter}: shot") for faces, _, reason in rolls)
            hit = any(value >= 5 for _, value, _ in rolls)
            fallen = [t.removeprefix("☠ Casualty: ") for t in shot.titles if t.startswith("☠ Casualty: ")]
            assert fallen == ([target] if hit else []), (rolls, shot.titles)
            for name in fallen:
                alive[foe].remove(name)
            won = [t for t in shot.titles if t.endswith(" wins!")]
            if won:
                assert won == [f"🏆 {side.title()} wins!"] and not alive[foe]
                winner = side
                life.ended = shot
        if winner:
            break
        passed = await life.act(me, "ssg next")
        assert passed.message.pings.users == {life.user_of(foe).id} and f"{foe}: your move" in passed.content  # type: ignore[union-attr]
        side, shooting = foe, False
    assert winner is not None, f"no winner after 40 player turns: {alive}"


async def play_medieval(life: Life) -> None:
    """The roll-off's winner goes first by button; one figure engages an enemy (the odds of the fight
    first), fights, and the turn ends."""
    started = life.started
    assert started is not None
    chooser = re.search(r"\b(red|blue) chooses who goes first", started.text)[1]  # type: ignore[index]
    assert started.message.pings.users == {life.user_of(chooser).id}  # type: ignore[union-attr]
    assert (
        started.content
        == f"<@{life.user_of(chooser).id}> Waiting for {chooser}: {chooser} won the roll-off: go first or second?"
        "\n/help topic:medieval lists a turn's commands."
    )
    chosen = await life.answer_by_button(started.message, 0)  # type: ignore[arg-type]
    assert f"{chooser} chooses to go first: turn 1 · {chooser}'s turn." in chosen.text
    me, foe = life.user_of(chooser), life.other(chooser)
    mine, theirs = life.case.figures[chooser][0], life.case.figures[foe][0]
    engaged = await life.act(me, "medieval move", figure=mine, distance=0.0, engage=theirs)
    assert f"{mine} engages {theirs} in hand-to-hand" in engaged.text
    card = await life.odds(me, f'medieval fight figure:"{mine}"', "either")  # 1,686 sequences: exact, unless slow
    assert f"— {mine}: " in card["description"] or f"— {theirs}: " in card["description"]
    fought = await life.act(me, "medieval fight", figure=mine)
    assert f"Hand-to-hand: {mine} " in fought.text and f"; {theirs} " in fought.text
    assert [reason for _, _, reason in dice_lines(fought)][:2] == [
        f"{mine}: hand-to-hand against {theirs}",
        f"{theirs}: hand-to-hand against {mine}",
    ]
    ended = await life.act(me, "medieval endturn")
    assert ended.message.pings.users == {life.user_of(foe).id} and f"Turn 1 · {foe}'s turn." in ended.text  # type: ignore[union-attr]


async def play_sharpe(life: Life) -> None:
    """The character first in the batting order shoots (its odds asked first) and is
    done; the next character's player asks the odds of a melee attack, whose dice wait for the
    defender's choice, so there are none to give."""
    started = life.started
    assert started is not None
    name, side = re.search(r"Bound 1 · (.+?) \((british|french)\) to act\.", started.text).groups()  # type: ignore[union-attr]
    me, foe = life.user_of(side), life.other(side)
    assert started.message.pings.users == {me.id}  # type: ignore[union-attr]
    target = life.case.figures[foe][0]
    card = await life.odds(me, f'sharpe shoot target:"{target}" range:10', "either")  # thousands of sequences
    assert f"— {target}: " in card["description"]
    shot = await life.act(me, "sharpe shoot", target=target, range=10.0)
    assert f"{name} fires his " in shot.text and f" at {target} (10″)" in shot.text
    assert dice_lines(shot) and all(faces == 6 for faces, _, _ in dice_lines(shot))
    done = await life.act(me, "sharpe done")
    nxt, nxt_side = re.search(r"Bound 1 · (.+?) \((british|french)\) to act\.", done.text).groups()  # type: ignore[union-attr]
    assert f"{name} ends his turn." in done.text and nxt != name
    asker = life.user_of(nxt_side)
    defender = life.case.figures[life.other(nxt_side)][1]
    asked = private(await life.fake.slash(asker, "odds", action=f'sharpe attack defender:"{defender}"'))
    odds = embed(asked, "Odds before you roll")["description"]  # the defender chooses first: odds for each defence
    assert f"how does {defender} defend" in odds and "**If the answer is Parry:**" in odds


async def play_nsr(life: Life) -> None:
    """Each card turned asks its side which unit acts (by button, pressed by that side's player); the
    unit chosen moves on the movement chart, its odds asked first (simulated: the deck branches too
    widely to enumerate)."""
    started = life.started
    assert started is not None
    message = started.message
    assert message is not None
    for _ in range(8):
        [decider] = message.pings.users
        side = life.side_of(decider)
        assert f"Waiting for {side}: " in message.content and f"— {side}: choose a unit" in message.content
        outcome = await life.answer_by_button(message, 0)
        assert f"{side} chooses " in outcome.text or f"{side} names " in outcome.text
        if decision_buttons(outcome):  # the unit's activation ended at once (a joker): the next card
            message = outcome
            continue
        unit = re.search(rf"{side} chooses (.+?) to move on ", outcome.text)[1]  # type: ignore[index]
        me = life.user_of(side)
        if f"Joker Movement chart for {unit}: 6 " in outcome.text:  # it must charge
            target = life.case.figures[life.other(side)][0]
            await life.odds(me, f'nsr charge target:"{target}"', "simulation")
            await life.act(me, "nsr charge", target=target)
            return
        card = await life.odds(me, "nsr move", "simulation")
        assert card["description"].startswith("`/nsr move`\n")  # as typed: no option it left out
        moved = await life.act(me, "nsr move")
        assert re.search(
            rf"{re.escape(unit)} moves \(\w+, cross country\): \d+D6 [\d+]+ = \d+(, [−+]\d+ \([\w ]+\))* → up to \d+″\.",
            moved.text,
        ), moved.text
        assert all(faces == 6 and reason.startswith(f"{unit}: ") for faces, _, reason in dice_lines(moved))
        return
    raise AssertionError("no unit was chosen to move in eight cards")


async def play_yasg(life: Life) -> None:
    """On the house rules' open field: every figure placed, morale and initiative rolled, both sides
    move, then in the fire phase a figure fires (its odds asked first)."""
    started = life.started
    assert started is not None
    assert "Setup on the “open field” board (12 × 12 squares)" in started.text
    rita, bob = life.user_of("british"), life.user_of("french")
    for user, side, row, facing in ((rita, "british", 4, "S"), (bob, "french", 8, "N")):
        for name, column in zip(life.case.figures[side], "FG", strict=False):
            placed = await life.act(user, "yasg place", figure=name, square=f"{column}{row}")
            assert (
                f"{name} ({side}, class " in placed.text and f"stands at {column}{row}, facing {facing}." in placed.text
            )
    assert "Setup: every figure is on the board." in life.last.text  # type: ignore[union-attr]
    assert "The battle begins. Turn 1 · morale phase" in (await life.act(rita, "yasg next")).text
    rolled = await life.act(rita, "yasg next")
    mover = re.search(r"Turn 1 · movement phase: (british|french) move first", rolled.text)[1]  # type: ignore[index]
    assert {reason for _, _, reason in dice_lines(rolled)} == {"Initiative: british", "Initiative: french"}
    now = await life.act(life.user_of(mover), "yasg next")
    assert f"Turn 1 · movement phase: {life.other(mover)} move now" in now.text
    fire = await life.act(life.user_of(life.other(mover)), "yasg next")
    assert "Turn 1 · fire phase (simultaneous). Able to fire" in fire.text
    card = await life.odds(rita, "yasg fire figure:Harper target:Lebrun", "either")  # exact, if the machine has time
    assert "— misfire" in card["description"]
    fired = await life.act(rita, "yasg fire", figure="Harper", target="Lebrun")
    assert "Harper's musket misfires" in fired.text or "Harper fires at Lebrun (4 squares" in fired.text
    assert dice_lines(fired)[0][:1] == (6,) and dice_lines(fired)[0][2] == "Harper: musket, misfires on 1"


CASES = [
    Case(
        "ssg",
        "Simple Skirmish Game",
        ("red", "blue"),
        {
            "red": b"# Rita's squad\nsides:\n  red:\n    - {name: Rossi, kind: rifle}\n    - {name: Cy, kind: submachine gun}\n",
            "blue": b"skirmish_gm: roster\nruleset: ssg\nsides:\n  blue:\n    - name: Bo\n      kind: pistol\n"
            b"    - name: Big Jim\n      kind: smg\n",
        },
        {"red": ["Rossi", "Cy"], "blue": ["Bo", "Big Jim"]},
        b"# Our club's quick game: two a side.\nfigures_per_side: 2\nvictory_removed: 2\n",
        ["figures_per_side: 6 → 2", "victory_removed: 4 → 2"],
        play_ssg,
        "Iron Coast",
        finish_ssg,
    ),
    Case(
        "medieval",
        "Medieval Skirmish (knights, men at arms and Vikings)",
        ("red", "blue"),
        {
            "red": b"sides:\n  red:\n    - name: Sir Hugh\n      kind: Knight\n"
            b"      stats: {weapons: Sword, armour: Chainmail+Small Shield}\n"
            b"    - name: Ada\n      kind: custom\n"
            b"      stats: {speed: 6, bravery: 5, shoot: 4, fight: 3, weapons: [Bow, Dagger], armour: Leather}\n",
            "blue": b"sides:\n  blue:\n    - {name: Olaf, kind: Viking Warrior}\n    - {name: Harald, kind: Viking Hero}\n",
        },
        {"red": ["Sir Hugh", "Ada"], "blue": ["Olaf", "Harald"]},
        b"natural_one_misses: true  # A-MED-4, the stricter reading\n",
        ["natural_one_misses: no → yes"],
        play_medieval,
        "Northumbria",
    ),
    Case(
        "sharpe",
        "Sharpe's Skirmish",
        ("british", "french"),
        {
            "british": b"sides:\n  british:\n    - {name: Harris, kind: rifleman, stats: {I: 4, D: 4, S: 3, C: 3, F: 9}}\n"
            b"    - {name: Sharpe, kind: rifle_officer, stats: {I: 6, D: 5, S: 5, C: 6, F: 10}}\n",
            "french": b"sides:\n  french:\n    - {name: Dubois, kind: voltigeur, stats: {I: 4, D: 3, S: 3, C: 3, F: 6}}\n"
            b"    - {name: Leroux, kind: officer, stats: {I: 5, D: 4, S: 4, C: 5, F: 7}}\n",
        },
        {"british": ["Harris", "Sharpe"], "french": ["Dubois", "Leroux"]},
        b"options:\n  head5: serious   # the playsheet's Head 5\n",
        ["options.head5: light → serious"],
        play_sharpe,
        "Talavera",
    ),
    Case(
        "nsr",
        "Napoleonic Skirmish Rules",
        ("French", "Allied"),
        {
            "French": b"sides:\n  French:\n    - {name: 1er Ligne, kind: line, stats: {figures: 6}}\n"
            b"    - {name: Chasseurs, kind: mounted, stats: {figures: 3}}\n",
            "Allied": b"sides:\n  Allied:\n    - {name: 33rd Foot, kind: line, stats: {figures: 6}}\n"
            b"    - {name: Militia, kind: militia, stats: {figures: 2, officer: no}}\n",
        },
        {"French": ["1er Ligne", "Chasseurs"], "Allied": ["33rd Foot", "Militia"]},
        b"options: {smoothed_firing_rows: true}\n",
        ["options.smoothed_firing_rows: no → yes"],
        play_nsr,
        "Talavera",
        entries="units",
    ),
    Case(
        "yasg",
        "Yet Another Skirmish Game",
        ("british", "french"),
        {
            "british": b"sides:\n  british:\n    - {name: Harper, kind: A, stats: {leader: yes}}\n    - {name: Cooper, kind: B}\n",
            "french": b"sides:\n  french:\n    - {name: Lebrun, kind: A}\n    - {name: Dubois, kind: B}\n",
        },
        {"british": ["Harper", "Cooper"], "french": ["Lebrun", "Dubois"]},
        b"board: open field\n",
        ["board: farm → open field"],
        play_yasg,
        "Hougoumont",
    ),
]


def slug_of(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


async def wait_posted(fake: FakeDiscord, channel: FakeChannel, title: str, what: str) -> FakeMessage:
    """The one message the bot posted on its own (not an answer) in ``channel`` with an embed whose
    title starts with ``title``."""

    def found() -> list[FakeMessage]:
        return [
            m
            for m in fake.messages_in(channel)
            if m.interaction is None
            and m.author.bot
            and any((e.get("title") or "").startswith(title) for e in m.embeds)
        ]

    [message] = await fake.wait_until(found, 60, what)
    return message


@pytest.mark.parametrize("case", CASES, ids=[c.slug for c in CASES])
async def test_a_campaign_lives_through_a_battle(fake: FakeDiscord, bot: Any, case: Case) -> None:
    gina, rita, bob = fake.add_user("Gina"), fake.add_user("Rita"), fake.add_user("Bob")
    first, second = case.sides
    player = {first: rita, second: bob}
    files = slug_of(case.campaign)

    async with AttachmentHost() as cdn:
        life = Life(fake, cdn, case, gina, player)

        # --- the campaign, and two players approved: one by button, one by /decide ----------------
        new = public(await fake.slash(gina, "campaign new", name=case.campaign, ruleset=case.slug, battlefield="table"))
        assert embed(new, "New campaign")["description"].startswith(
            f"**{case.campaign}** begins: {case.title}. Gina is the game master.\nPlayers: /campaign join with a side "
            f"({first}, {second}), then /roster add."
        )
        asked = public(await fake.slash(rita, "campaign join", side=first))
        assert asked.message.pings.users == {gina.id}  # type: ignore[union-attr]
        assert f"Rita asks to play **{first}**" in asked.text
        welcomed = await fake.click(gina, asked, decision_buttons(asked.message)[0])  # type: ignore[arg-type]
        assert welcomed.type == 7 and asked.content == "Decided by Gina: **Approve**"
        [welcome] = await welcomed.wait_followups(1)
        assert f"Rita now plays **{first}**" in welcome.text and welcome.pings.users == {rita.id}
        public(await fake.slash(bob, "campaign join", side=second))
        approved = public(await fake.slash(gina, "decide", choice="approve"))
        assert f"Bob now plays **{second}**" in approved.text and approved.message.pings.users == {bob.id}  # type: ignore[union-attr]

        # --- each side's roster comes in as a YAML file --------------------------------------------
        for side, user in player.items():
            name = f"{side.lower()}-{case.slug}.yaml"
            imported = public(
                await slash_with_files(fake, cdn, user, "roster import", file=Upload(name, case.roster[side]))
            )
            names = case.figures[side]
            assert embed(imported, "Roster imported")["description"] == (
                f"{user.display_name} imported {name}: 2 added ({names[0]}, {names[1]})."
            )
        assert len(cdn.downloads) == 2
        listed = private(await fake.slash(bob, "roster list"))
        for side, names in case.figures.items():
            [listing] = listed.field_values(f"{side.title()} (2)")
            assert [line.split(" — ")[0] for line in listing.splitlines()] == sorted(names)

        # --- house rules: set by the game master, read back by a player ----------------------------
        house = public(
            await slash_with_files(fake, cdn, gina, "campaign rules set", file=Upload("house.yaml", case.house))
        )
        assert embed(house, "House rules set")["description"].splitlines() == [
            f"Gina set the house rules of **{case.campaign}** from house.yaml:",
            *case.house_changes,
        ]
        shown = private(await fake.slash(rita, "campaign rules show"))
        assert embed(shown, f"House rules: {case.campaign}")["description"].splitlines() == case.house_changes
        assert any(name.startswith("Switches (") for name in (f["name"] for f in shown.embeds[0]["fields"]))
        assert sent_file_names(fake, shown) == [f"house-rules-{files}.yaml"]
        assert sent_files(fake, shown) == {f"house-rules-{files}.yaml": case.house}  # as the game master wrote it

        # --- the battle: the start, a secret roll, the odds and the ruleset's own actions ----------
        life.started = public(await fake.slash(gina, "game start"))
        assert embed(life.started, "Game on")["footer"]["text"] == "by Gina"
        table = embed(life.started, f"{case.campaign}: the table")  # one board card, not two
        board_text = " ".join(f["value"] for f in table.get("fields", []))
        assert all(name in board_text for names in case.figures.values() for name in names)

        secret = private(await fake.slash(gina, "roll", dice="1d20", reason=SECRET_REASON, secret=True))
        assert "🔒 Secret roll: 1d20" in secret.text and SECRET_REASON in secret.text
        refused = await fake.slash(rita, "roll", dice="1d20", secret=True)
        assert refused.ephemeral and "Only the game master may roll in secret." in refused.text

        await case.play(life)
        assert life.commands, "no action of the ruleset was played"

        # --- pace: a deadline; the waiting player reminded, the game master pinged at the deadline --
        deadline = public(await fake.slash(gina, "campaign deadline", hours=0.5, then="gm"))
        described = embed(deadline, "⏰ Turn deadline")["description"]
        assert described.startswith("Every move waits at most **30 minutes**.")
        waiting_side, kind = re.search(r"The clock for (.+?)'s (turn|decision) starts now\.", described).groups()  # type: ignore[union-attr]
        what = f"{waiting_side}'s {kind}"
        reminder = await wait_posted(fake, fake.channel, f"⏰ Reminder: {what}", "the reminder")
        assert reminder.pings.users == {player[waiting_side].id} and not reminder.pings.everyone
        assert "then the game master decides." in reminder.text
        passed = await wait_posted(fake, fake.channel, f"⏰ Deadline passed: {what}", "the deadline")
        assert passed.pings.users == {gina.id}
        how = (
            f"answer it for {waiting_side} with /decide or its buttons"
            if kind == "decision"
            else f"act for {waiting_side} with the /{case.slug} commands"
        )
        assert f"The game master decides: {how}, or wait for {waiting_side}." in passed.text
        longer = public(await fake.slash(gina, "campaign deadline", hours=48.0, then="pass"))
        assert "Every move waits at most **48 hours**." in longer.text

        # --- the log: the players see that the game master rolled in secret, not what ---------------
        log = private(await fake.slash(rita, "game log", count=25))
        assert "🔒 The game master rolled in secret" in log.text and SECRET_REASON not in log.text
        for command in life.commands[-3:]:
            assert f"`{command}" in log.text, (command, log.text)
        [page] = log.embeds
        battle = int(re.fullmatch(r"Log of battle (\d+)", page["title"])[1])  # type: ignore[index]
        assert battle == 1  # the campaign's first battle, whatever the database's id for it
        assert re.fullmatch(
            r"Page 1 of 1 · actions \d+–1, newest first · /game report has the whole battle", page["footer"]["text"]
        )
        assert page["description"].index(f"`{life.commands[-1]}") < page["description"].index("`/game start`")

        # --- the end: a post-battle card per side, every figure in it ------------------------------
        if case.finish is not None:
            await case.finish(life)
        else:
            life.ended = public(await fake.slash(gina, "game end"))
            assert embed(life.ended, "Game ended")["description"] == f"Battle {battle} is over; its log is kept."
        ended = life.ended
        assert ended is not None
        notes: dict[str, str] = {}
        statuses: dict[str, str] = {}
        for side in case.sides:
            card = embed(ended, f"After the battle: {side.title()}")
            lines = [AFTER_LINE.match(line) for line in card["description"].splitlines()]
            assert all(lines), card["description"]
            assert sorted(m["name"] for m in lines) == sorted(case.figures[side])  # type: ignore[index]
            notes.update({m["name"]: m["note"] for m in lines})  # type: ignore[index]
            statuses.update({m["name"]: STATUS_OF_MARK[m["mark"]] for m in lines})  # type: ignore[index]

        # --- each figure's history: the note of this battle, in the export and in /roster show ------
        exported = private(await fake.slash(rita, "roster export"))
        [(name, data)] = sent_files(fake, exported).items()
        assert name == f"roster-{files}-{slug_of(first)}.yaml"
        roster = yaml.safe_load(data)
        assert roster["ruleset"] == case.slug and list(roster["sides"]) == [first]
        for figure in roster["sides"][first]:
            last = figure["history"][-1]
            assert last["battle"] == battle and last["note"] == notes[figure["name"]], figure
            assert figure.get("status", "active") == statuses[figure["name"]], figure
            assert abs(date.fromisoformat(last["date"]) - date.today()).days <= 1  # the bot's day is UTC's
        them = case.figures[second][0]
        record = private(await fake.slash(bob, "roster show", name=them))
        [history] = embed(record, them)["fields"][-1:]
        assert history["name"] == "History"
        last_line = history["value"].splitlines()[-1]
        assert str(battle) in last_line and notes[them].removeprefix(f"Battle {battle}: ") in last_line
        assert "{'" not in history["value"]  # read as words, not as Python's repr of a record

        # --- the report: for everyone now, the secret roll revealed ----------------------------------
        report = public(await fake.slash(bob, "game report"))
        assert f"Report of battle {battle}" in report.text
        [(name, data)] = sent_files(fake, report).items()
        assert name == f"battle-{battle}.md"
        text = data.decode()
        assert SECRET_REASON in text and "🔒 *secret roll*" in text
        assert all(f"`{command}" in text for command in life.commands[-3:])
        assert all(n in text for names in case.figures.values() for n in names)
        after_log = private(await fake.slash(rita, "game log", count=25))
        pages = int(re.search(r"Page 1 of (\d+)", after_log.embeds[0]["footer"]["text"])[1])  # type: ignore[index]
        whole_log = after_log.text
        for n in range(2, pages + 1):  # the battle's length (its dice) decides how many pages
            whole_log += private(await fake.slash(rita, "game log", count=25, page=n)).text
        assert SECRET_REASON in whole_log  # the battle is over: the log shows it too

        # --- the whole campaign as a file, and into another channel -----------------------------------
        whole = private(await fake.slash(gina, "campaign export"))
        [(name, data)] = sent_files(fake, whole).items()
        assert re.fullmatch(rf"campaign-{files}-\d{{4}}-\d\d-\d\d\.yaml", name)
        assert (
            embed(whole, "Campaign exported")["description"] == f"**{name}**: 3 members, 4 {case.entries}, house rules."
        )
        campaign = yaml.safe_load(data)
        assert campaign["ruleset"] == case.slug and campaign["name"] == case.campaign
        assert campaign["house_rules"] == yaml.safe_load(case.house)
        assert campaign["settings"]["pace"] == {"hours": 48.0, "on_timeout": "pass", "remind_at": 0.75}
        assert {(m["name"], m["role"], m["side"]) for m in campaign["members"]} == {
            ("Gina", "gm", None),
            ("Rita", "player", first),
            ("Bob", "player", second),
        }
        for side, names in case.figures.items():
            kept = {f["name"]: f for f in campaign["sides"][side]}
            assert sorted(kept) == sorted(names)
            assert all(f["history"][-1]["note"] == notes[n] and f["owner"] == player[side].id for n, f in kept.items())

        annex = fake.add_channel(f"annex-{case.slug}")
        moved = public(await slash_with_files(fake, cdn, gina, "campaign import", at=annex, file=Upload(name, data)))
        described = embed(moved, "Campaign imported")["description"]
        assert described.startswith(f"**{case.campaign}** ({case.title}), game master Gina.\n")
        assert described.endswith(
            f"Gina imported {name}: 4 added ({', '.join(n for ns in case.figures.values() for n in ns)})."
        )
        again = private(await fake.slash(bob, "roster show", name=them, at=annex))
        assert embed(again, them)["fields"][-1] == history  # the history came along
        rules_there = private(await fake.slash(rita, "campaign rules show", at=annex))
        assert embed(rules_there, f"House rules: {case.campaign}")["description"].splitlines() == case.house_changes
        there = private(await fake.slash(rita, "roster export", at=annex))
        assert yaml.safe_load(next(iter(sent_files(fake, there).values())))["sides"] == roster["sides"]
