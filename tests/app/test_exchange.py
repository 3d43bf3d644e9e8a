"""Rosters and campaigns as YAML, in and out, and house rules: on SQLite and PostgreSQL.

The round trip (an exported file imports back to the same roster) is checked with random valid
rosters for every ruleset (SSG, medieval, Sharpe, NSR, YASG), stats the rules roll at recruitment
included, with and without house rules.
"""

from __future__ import annotations

import itertools
import textwrap
from collections.abc import Awaitable
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from bot.app.campaign_file import HOUSE_RULES_TEXT, changes
from bot.app.exchange import ExchangeCommands
from bot.app.inputs import clean_name
from bot.app.lookalike import look_alike_keys
from bot.app.name_rules import refuse_unsafe
from bot.app.replies import Caller, Refusal, Reply
from bot.app.service import App
from bot.app.switches import switches
from bot.app.yaml_format import MAX_FILE_BYTES, FileProblems, FileRefused, place_data_problems, read
from bot.store.exchange import Exchange
from bot.store.schema import Campaign, Figure, Member
from rules import RULESETS, get_engine
from rules.core import DataError, FigureSpec, RuleError
from tests.dice import RandomDice
from tests.orm import orm
from tests.support import BLUE, CHANNEL, GM, RED, STRANGER, caller, join, ssg_campaign, ssg_table

GINA, RITA, BOB = caller(GM, "Gina"), caller(RED, "Rita"), caller(BLUE, "Bob")


def y(text: str) -> bytes:
    return textwrap.dedent(text).lstrip("\n").encode()


async def refusal(call: Awaitable[Reply]) -> FileRefused:
    """A file refused for its problems: raised (never a reply), for the one error handler to show."""
    with pytest.raises(FileRefused) as caught:
        await call
    return caught.value


def problems(refused: FileRefused) -> list[str]:
    """The problem lines of a refused import (the refusal's first line is the count)."""
    assert refused.advice == "Fix them all and send the file again."
    head, *lines = refused.message.splitlines()
    assert "problem" in head and ("nothing" in head or "not changed" in head), head
    return [line.removeprefix("• ") for line in lines]


async def medieval_table(app: App) -> None:
    await app.campaign_new(GINA, "Northumbria", "medieval", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")


async def roster(app: App, channel: int = CHANNEL) -> list[tuple[Any, ...]]:
    async with orm(app.store.db) as s:
        campaign = await s.scalar(select(Campaign).where(Campaign.channel_id == channel, Campaign.active.is_(True)))
        rows = await s.scalars(select(Figure).where(Figure.campaign_id == campaign.id).order_by(Figure.id))
        return [(f.name, f.side, f.kind, f.stats, f.status, f.history, f.owner_id) for f in rows]


async def everything(app: App) -> tuple[Any, ...]:
    async with orm(app.store.db) as s:
        campaigns = [
            (c.name, c.ruleset, c.gm_id, c.house_rules, c.settings, c.active)
            for c in await s.scalars(select(Campaign).order_by(Campaign.id))
        ]
        members = [
            (m.campaign_id, m.user_id, m.role, m.side) for m in await s.scalars(select(Member).order_by(Member.id))
        ]
        figures = [
            (f.campaign_id, f.name, f.side, f.kind, f.stats, f.status, f.history, f.owner_id)
            for f in await s.scalars(select(Figure).order_by(Figure.id))
        ]
    return campaigns, members, figures


# --- reading YAML --------------------------------------------------------------------------------


def test_a_syntax_error_says_its_line() -> None:
    with pytest.raises(FileProblems) as caught:
        read(
            y("""
            sides:
              red:
                - name: Rossi
                  kind: [rifle
            """)
        )
    assert caught.value.problems[0].startswith("line 5:")


def test_values_keep_their_lines_and_dates_stay_text() -> None:
    doc = read(
        y("""
        # a comment
        name: 007
        when: 2024-05-01
        ok: yes
        list:
          - a
          - {b: 1}
        """)
    )
    assert doc.data["when"] == "2024-05-01"
    assert doc.text("name") == "007" and doc.text("ok") == "yes"
    assert doc.line("name") == 2 and doc.line("list", 1, "b") == 7 and doc.line("list", 1, "nope") == 7


@pytest.mark.parametrize(
    "text,expected",
    [
        ("a: !!python/object/apply:os.system ['echo hi']\n", "line 1:"),
        ("a: !!binary aGk=\n", "line 1: tag:yaml.org,2002:binary"),
        ("a: 1\na: 2\n", "line 2: 'a' is given twice"),
        ('a: "nul \\0 here"\n', "line 1: the text holds a character"),
        ("a: .nan\n", "line 1: .nan is not a number"),
        ("", "the file is empty"),
        ("a: 1\n---\nb: 2\n", "line 2: a second YAML document"),
        ("? [a, b]\n: 1\n", "line 1: a key must be a plain word"),
    ],
)
def test_unsafe_or_odd_yaml_is_refused_with_its_line(text: str, expected: str) -> None:
    with pytest.raises(FileProblems) as caught:
        read(text.encode())
    assert any(p.startswith(expected) for p in caught.value.problems), caught.value.problems


def test_an_alias_bomb_and_deep_nesting_are_refused_quickly() -> None:
    bomb = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    bomb += [
        f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]"
        for i in range(1, 10)
    ]
    with pytest.raises(FileProblems) as caught:
        read("\n".join(bomb).encode())
    assert "too much data" in caught.value.problems[0]
    with pytest.raises(FileProblems) as caught:
        read(("a: " + "[" * 60 + "]" * 60 + "\n").encode())
    assert "nested" in caught.value.problems[0]
    with pytest.raises(FileProblems) as caught:
        read(("[" * 5000 + "]" * 5000).encode())
    assert "nest" in caught.value.problems[0]


def test_size_and_encoding_are_checked_before_parsing() -> None:
    with pytest.raises(Refusal, match="256 KiB"):
        read(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(Refusal, match="not UTF-8"):
        read(b"\xff\xfe\x00a")
    assert read("\ufeffa: 1\n".encode()).data == {"a": 1}  # a byte-order mark is fine


def test_the_rules_problems_are_placed_on_the_lines_that_hold_their_keys() -> None:
    doc = read(
        y("""
        weapons:
          rifle:
            short: 30
        wound_chart:
          - {up_to: 0}
        foo: 1
        """)
    )
    placed = place_data_problems(
        doc,
        [
            "weapons.rifle: short range 30 is more than long range 24",
            "wound_chart[0].result: missing",
            "the top level: unknown key 'foo'",
            "victory_removed: must be between 1 and 6",
        ],
        "elsewhere",
    )
    assert placed[0].startswith("line 2: weapons.rifle")
    assert placed[1].startswith("line 5: wound_chart[0]")
    assert placed[2].startswith("line 6: foo is not a key")
    assert placed[3] == "victory_removed: must be between 1 and 6 (elsewhere)"


def test_every_ruleset_offers_its_switches_from_its_tables() -> None:
    for slug in RULESETS:
        for switch in switches(slug):
            assert switch.path and switch.name
    medieval = {s.name: s for s in switches("medieval")}
    assert medieval["self_healing"].default is False and "A-MED-15" in medieval["self_healing"].note
    assert [s.name for s in switches("ssg")] == ["default_weapon"]


async def test_the_app_offers_each_exchange_command_under_its_own_name(app: App) -> None:
    commands = [name for name in vars(ExchangeCommands) if not name.startswith("_")]
    assert commands == [
        "roster_export",
        "roster_import",
        "campaign_export",
        "campaign_import",
        "rules_set",
        "rules_show",
        "rules_clear",
    ]
    for name in commands:
        assert getattr(app, name) == getattr(app.exchange, name), name


# --- /roster export -------------------------------------------------------------------------------


async def test_a_player_exports_their_own_side_and_the_game_master_any(app: App) -> None:
    await medieval_table(app)
    await app.roster_add(RITA, "Rossi", "Knight")
    await app.roster_add(BOB, "Ulf", "Viking Hero")
    reply = await app.roster_export(RITA)
    [(name, data)] = reply.files
    assert reply.ephemeral and name == "roster-northumbria-red.yaml"
    parsed = yaml.safe_load(data)
    assert parsed["ruleset"] == "medieval" and list(parsed["sides"]) == ["red"]
    assert parsed["sides"]["red"] == [
        {"name": "Rossi", "kind": "Knight", "stats": {"weapons": "Sword", "armour": "Chainmail+Small Shield"}}
    ]
    with pytest.raises(Refusal, match="only the game master may export blue"):
        await app.roster_export(RITA, "blue")
    with pytest.raises(Refusal, match="Only the game master may export every side"):
        await app.roster_export(RITA, "all")
    with pytest.raises(Refusal, match="not in this campaign"):
        await app.roster_export(caller(STRANGER))
    everyone = yaml.safe_load((await app.roster_export(GINA)).files[0][1])
    assert {s: [f["name"] for f in fs] for s, fs in everyone["sides"].items()} == {"red": ["Rossi"], "blue": ["Ulf"]}
    assert yaml.safe_load((await app.roster_export(GINA, "Blue")).files[0][1])["sides"] == {
        "blue": everyone["sides"]["blue"]
    }


# --- /roster import -------------------------------------------------------------------------------


async def test_every_problem_is_told_at_once_with_its_line_and_nothing_changes(app: App) -> None:
    await medieval_table(app)
    await app.roster_add(RITA, "Rossi", "Knight")
    await app.roster_add(BOB, "Ulf", "Viking Hero")
    before = await everything(app)
    reply = await refusal(
        app.roster_import(
            RITA,
            "red.yaml",
            y("""
        ruleset: medieval
        sides:
          red:
            - name: Ada
              kind: custom
              stats: {speed: 6, bravery: 4, shoot: 15, fight: 3}
            - name: Cy
              kind: Knigth
            - name: ada
              kind: Knight
            - name: Dee
              kind: Knight
              status: dead
            - name: Ulf
              kind: Viking Hero
            - {kind: Knight}
            - name: Eve
              kind: Knight
              colour: red
          green:
            - name: Gus
        """),
        )
    )
    found = problems(reply)
    assert found == [
        "line 6: “Ada”'s shoot must be from 0 to 12, not 15.",
        "line 8: “Knigth” is not a kind of figure here: use Knight, Man at Arms, Viking Warrior, Viking Hero or custom.",
        "line 9: a second figure called “ada” (the first is on line 4)",
        "line 13: only the game master may change “Dee”'s status (active → dead)",
        "line 14: “Ulf” fights for blue in this campaign; import does not move a figure to another side",
        "line 16: a figure needs a name",
        "line 19: a figure has no key 'colour' (it takes name, kind, stats, status, history)",
        "line 20: “green” is not a side here: use red, blue",
    ]
    assert "8 problems in red.yaml; nothing was imported:" in reply.message
    assert await everything(app) == before


async def test_import_adds_new_figures_updates_known_ones_and_leaves_the_rest(app: App) -> None:
    await medieval_table(app)
    await app.roster_add(RITA, "Rossi", "Knight")
    await app.roster_add(RITA, "Ada", "Man at Arms")
    await app.roster_add(RITA, "Bea", "Man at Arms")
    exported = yaml.safe_load((await app.roster_export(RITA)).files[0][1])
    exported["sides"]["red"][1]["stats"]["weapons"] = "Sword+Dagger"  # Ada takes a dagger
    del exported["sides"]["red"][2]  # Bea is not in the file: she stays
    exported["sides"]["red"].append(
        {
            "name": "Cy",
            "kind": "custom",
            "stats": {"speed": 5, "bravery": 5, "shoot": 2, "fight": 4, "weapons": ["Bow"]},
        }
    )
    reply = await app.roster_import(RITA, "red.yaml", yaml.safe_dump(exported).encode())
    assert reply.cards[0].title == "Roster imported" and not reply.ephemeral
    assert reply.cards[0].description == "Rita imported red.yaml: 1 added (Cy); 1 changed (Ada); 1 unchanged."
    rows = {r[0]: r for r in await roster(app)}
    assert list(rows) == ["Rossi", "Ada", "Bea", "Cy"]
    assert rows["Ada"][3] == {"weapons": "Sword+Dagger", "armour": "Leather+Small Shield"}
    assert rows["Cy"][2:] == (
        "custom",
        {"speed": 5, "bravery": 5, "shoot": 2, "fight": 4, "weapons": "Bow", "armour": "none"},
        "active",
        [],
        RED,
    )
    again = await app.roster_import(RITA, "red.yaml", yaml.safe_dump(exported).encode())
    assert again.ephemeral and again.cards[0].title == "Nothing to change"


async def test_names_match_ignoring_capitals_and_spaces_and_keep_the_campaigns_spelling(app: App) -> None:
    await medieval_table(app)
    await app.roster_add(RITA, "Big Jim", "Knight")
    await app.roster_import(
        RITA,
        "red.yaml",
        y("""
        sides:
          red:
            - name: "  big   JIM "
              kind: Man at Arms
        """),
    )
    assert [(r[0], r[2]) for r in await roster(app)] == [("Big Jim", "Man at Arms")]


async def test_only_the_game_master_writes_a_figures_status_and_history(app: App) -> None:
    await medieval_table(app)
    await app.roster_add(RITA, "Rossi", "Knight")
    file = y("""
        sides:
          red:
            - name: Rossi
              kind: Knight
              status: dead
              history: [{battle: 1, wound: serious}]
        """)
    assert problems(await refusal(app.roster_import(RITA, "r.yaml", file))) == [
        "line 5: only the game master may change “Rossi”'s status (active → dead)",
        "line 6: only the game master may change “Rossi”'s history",
    ]
    reply = await app.roster_import(GINA, "r.yaml", file)
    assert reply.cards[0].title == "Roster imported"
    [row] = await roster(app)
    assert row[4:] == ("dead", [{"battle": 1, "wound": "serious"}], RED)  # the owner stays Rita
    # Rita re-imports her old export: status and history left out stay as they are.
    await app.roster_import(RITA, "r.yaml", y("sides: {red: [{name: Rossi, kind: Knight}]}"))
    assert (await roster(app))[0][4] == "dead"


async def test_the_numbers_a_history_is_counted_by_must_be_numbers(app: App) -> None:
    """Free text and data stay free, but the battle and the battles a wound keeps a figure out
    are counted at /game start: a file may not make them words (which once raised there)."""
    await medieval_table(app)
    file = y("""
        sides:
          red:
            - name: Rossi
              kind: Knight
              status: resting
              history:
                - {battle: five, games_out: 2}
                - {battle: 2, games_out: -1, note: fell off his horse}
                - {games_out: 1}
                - {battle: "a fine day", note: free text stays free}
                - just a line
        """)
    assert problems(await refusal(app.roster_import(GINA, "r.yaml", file))) == [
        "line 7: “Rossi”'s history: battle must be a whole number from 1 to 100000, not “five”",
        "line 8: “Rossi”'s history: games_out must be a whole number from 0 to 100000, not -1",
        "line 9: “Rossi”'s history: battle must be a whole number from 1 to 100000, not nothing",
    ]
    assert await roster(app) == []


async def test_a_resting_figure_whose_record_says_nothing_countable_fights_again(app: App) -> None:
    """A record from before these checks (or edited in the database) never stops a battle."""
    from bot.app.aftermath import resting_since

    assert resting_since([{"battle": 3, "games_out": 2}, {"battle": "x", "games_out": 1}, "text"]) == (3, 2)
    assert resting_since([{"battle": "x", "games_out": 1}, ["odd"]]) is None
    assert resting_since([{"battle": 1, "games_out": True}]) is None


async def test_a_player_imports_only_for_their_side_and_a_stranger_not_at_all(app: App) -> None:
    await medieval_table(app)
    file = y("sides:\n  blue:\n    - {name: Ulf, kind: Viking Hero}\n")
    assert problems(await refusal(app.roster_import(RITA, "b.yaml", file))) == [
        "line 2: you play red: only the game master may import figures for blue"
    ]
    with pytest.raises(Refusal, match="not in this campaign"):
        await app.roster_import(caller(STRANGER), "b.yaml", file)
    await app.roster_import(BOB, "b.yaml", file)
    await app.roster_import(GINA, "r.yaml", y("sides:\n  red:\n    - {name: Rossi, kind: Knight}\n"))
    assert [(r[0], r[6]) for r in await roster(app)] == [("Ulf", BLUE), ("Rossi", GM)]


async def test_the_replies_count_a_rosters_entries_as_the_ruleset_calls_them(app: App) -> None:
    """NSR's roster entries are units (their figures a number in the stats); elsewhere they are figures."""
    await medieval_table(app)
    await app.roster_add(RITA, "Rossi", "Knight")
    assert (await app.roster_export(GINA)).cards[0].description.startswith("1 figure of every side in **")
    assert (await app.campaign_export(GINA)).cards[0].description.endswith(": 3 members, 1 figure.")

    elsewhere = {"channel": CHANNEL + 1}
    await app.campaign_new(caller(GM, "Gina", **elsewhere), "Talavera", "nsr")
    for user, name, side in ((RED, "Rita", "French"), (BLUE, "Bob", "Allied")):
        asked = await app.campaign_join(caller(user, name, **elsewhere), side)
        await app.decide(caller(GM, "Gina", **elsewhere), "approve", asked.decision.decision_id)
    await app.roster_add(caller(RED, "Rita", **elsewhere), "1er Ligne", "line", stats="figures=12")
    await app.roster_add(caller(RED, "Rita", **elsewhere), "2e Ligne", "line", stats="figures=10")
    await app.roster_add(caller(BLUE, "Bob", **elsewhere), "95th", "light", stats="figures=2 weapon=rifle")
    exported = await app.roster_export(caller(GM, "Gina", **elsewhere))
    assert exported.cards[0].description.startswith("3 units of every side in **")
    french = await app.roster_export(caller(RED, "Rita", **elsewhere))
    assert french.cards[0].description.startswith("2 units of French in **")
    assert (
        (await app.campaign_export(caller(GM, "Gina", **elsewhere)))
        .cards[0]
        .description.endswith(": 3 members, 3 units.")
    )
    again = await app.roster_import(caller(RED, "Rita", **elsewhere), *french.files[0])
    assert again.cards[0].description.endswith(": 2 unchanged.")
    empty = await app.roster_import(caller(RED, "Rita", **elsewhere), "f.yaml", y("sides: {French: []}\n"))
    assert empty.cards[0].description == "Rita imported f.yaml: no units."
    assert problems(
        await refusal(app.roster_import(caller(RED, "Rita", **elsewhere), "f.yaml", y("version: 1\n")))
    ) == ["line 1: the file has no units: list them under sides (sides: {French: [...]})"]


async def test_a_file_for_another_ruleset_or_a_campaign_file_is_refused(app: App) -> None:
    await medieval_table(app)
    assert problems(await refusal(app.roster_import(RITA, "r.yaml", y("ruleset: ssg\nsides: {red: []}\n")))) == [
        "line 1: the file is for ssg, but this campaign plays medieval"
    ]
    assert problems(
        await refusal(app.roster_import(RITA, "r.yaml", y("skirmish_gm: campaign\nsides: {red: []}\n")))
    ) == ["line 1: this is a “campaign” file, not a roster file: use /campaign import"]
    assert problems(await refusal(app.roster_import(RITA, "r.yaml", y("- just\n- a list\n"))))[0].startswith(
        "line 1: a roster file is a mapping"
    )
    assert problems(await refusal(app.roster_import(RITA, "r.yaml", y("version: 1\n")))) == [
        "line 1: the file has no figures: list them under sides (sides: {red: [...]})"
    ]


async def test_more_than_five_hundred_figures_are_refused(app: App) -> None:
    await medieval_table(app)
    lines = ["sides:", "  red:"] + [f"    - {{name: Man {i}, kind: Knight}}" for i in range(501)]
    assert problems(await refusal(app.roster_import(GINA, "big.yaml", "\n".join(lines).encode()))) == [
        "line 1: 501 figures is more than one import takes (500); split the file"
    ]
    assert await roster(app) == []


async def test_figures_in_the_game_in_progress_cannot_change_but_others_can_join(app: App, forced) -> None:
    await ssg_table(app, forced)
    changed = y("""
        sides:
          red:
            - {name: Rossi, kind: smg}
            - {name: Ada, kind: rifle}
            - {name: Newcomer, kind: pistol}
        """)
    assert problems(await refusal(app.roster_import(RITA, "r.yaml", changed))) == [
        "line 3: “Rossi” is in the game in progress: change it after /game end"
    ]
    reply = await app.roster_import(RITA, "r.yaml", changed.replace(b"Rossi, kind: smg", b"Rossi, kind: rifle"))
    assert reply.cards[0].description == "Rita imported r.yaml: 1 added (Newcomer); 2 unchanged."


async def test_nothing_is_half_imported_when_writing_fails(app: App, monkeypatch) -> None:
    await medieval_table(app)
    before = await everything(app)
    real = Exchange.add_figures

    async def add_then_fail(*args: Any) -> None:
        await real(*args)
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(Exchange, "add_figures", add_then_fail)
    with pytest.raises(RuntimeError):
        await app.roster_import(GINA, "r.yaml", y("sides: {red: [{name: A, kind: Knight}, {name: B, kind: Knight}]}"))
    assert await everything(app) == before


# --- /campaign export and import -------------------------------------------------------------------


async def test_a_campaign_moves_to_a_new_channel_whole(app: App) -> None:
    await medieval_table(app)
    await app.roster_add(RITA, "Rossi", "Knight")
    await app.roster_add(BOB, "Ulf", "Viking Hero")
    await app.rules_set(GINA, "h.yaml", y("self_healing: true\n"))
    async with orm(app.store.db) as s:
        campaign = await s.scalar(select(Campaign))
        campaign.settings = {**campaign.settings, "pace": {"hours": 24, "on_timeout": "pass", "remind_at": 0.75}}
        figure = await s.scalar(select(Figure).where(Figure.name == "Ulf"))
        figure.status, figure.history = "wounded", [{"battle": 1, "wound": "light"}]
    reply = await app.campaign_export(RITA)
    [(filename, data)] = reply.files
    assert reply.ephemeral and filename.startswith("campaign-northumbria-")
    parsed = yaml.safe_load(data)
    # the house rules' own text is not a setting
    assert parsed["settings"] == {
        "battlefield": "table",
        "pace": {"hours": 24, "on_timeout": "pass", "remind_at": 0.75},
    }
    assert parsed["house_rules"] == {"self_healing": True}
    assert parsed["members"] == [
        {"user": GM, "name": "Gina", "role": "gm", "side": None},
        {"user": RED, "name": "Rita", "role": "player", "side": "red"},
        {"user": BLUE, "name": "Bob", "role": "player", "side": "blue"},
    ]
    assert parsed["sides"]["blue"] == [
        {
            "name": "Ulf",
            "kind": "Viking Hero",
            "stats": {"weapons": "Sword", "armour": "Mailshirt+Large Shield"},
            "status": "wounded",
            "history": [{"battle": 1, "wound": "light"}],
            "owner": BLUE,
        }
    ]
    elsewhere = caller(GM, "Gina", channel=CHANNEL + 1)
    moved = await app.campaign_import(elsewhere, filename, data)
    assert moved.cards[0].title == "Campaign imported" and not moved.ephemeral
    assert await roster(app, CHANNEL + 1) == await roster(app)
    again = await app.campaign_export(elsewhere)
    assert again.files[0][1] == data
    async with orm(app.store.db) as s:
        new = await s.scalar(select(Campaign).where(Campaign.channel_id == CHANNEL + 1))
        assert (new.name, new.gm_id, new.house_rules) == ("Northumbria", GM, {"self_healing": True})


async def test_a_moved_campaign_goes_on_from_its_last_battle_and_its_resting_men_still_rest(app: App, forced) -> None:
    """Battle numbers go on in the new channel (the file says how many were fought), so a figure
    resting from battle 2 for one battle sits out battle 3 there and fights in battle 4."""
    await medieval_table(app)
    await app.roster_add(RITA, "Rossi", "Knight")
    await app.roster_add(RITA, "Ada", "Knight")
    await app.roster_add(BOB, "Ulf", "Viking Hero")
    for _ in range(2):
        forced.push_dice([6, 1])  # the roll-off
        await app.game_start(caller(GM, "Gina"))
        await app.game_end(caller(GM, "Gina"))
    async with orm(app.store.db) as s:
        figure = await s.scalar(select(Figure).where(Figure.name == "Ada"))
        figure.status, figure.history = "resting", [{"battle": 2, "note": "a broken arm", "games_out": 1}]
    [(filename, data)] = (await app.campaign_export(RITA)).files
    assert yaml.safe_load(data)["settings"] == {"battlefield": "table", "battles_before": 2}

    def elsewhere() -> Caller:
        return caller(GM, "Gina", channel=CHANNEL + 1)

    await app.campaign_import(elsewhere(), filename, data)

    forced.push_dice([6, 1])
    third = await app.game_start(elsewhere())
    assert "Ada" not in str(await app.game_status(elsewhere())) and "Rossi" in str(third)
    assert "battle 3" in (await app.game_status(elsewhere())).cards[0].title
    await app.game_end(elsewhere())
    forced.push_dice([6, 1])
    await app.game_start(elsewhere())
    fourth = await app.game_status(elsewhere())
    assert "battle 4" in fourth.cards[0].title and "Ada" in str(fourth)
    refused = await refusal(
        app.campaign_import(
            caller(GM, "Gina", channel=CHANNEL + 2), filename, data.replace(b"battles_before: 2", b"battles_before: -1")
        )
    )
    assert "battles_before: must be a whole number from 0 to 100000, not “-1”" in refused.message


async def test_a_campaign_file_whose_ask_switch_is_not_yes_or_no_is_refused(app: App, forced) -> None:
    """The house-rule switch ``ask_when_one_choice`` travels in a campaign's settings: read back, it
    must be yes or no like /campaign rules set takes it, and a file with another value imports nothing."""
    await ssg_table(app, forced)
    [(filename, data)] = (await app.campaign_export(RITA)).files
    document = yaml.safe_load(data)
    document["settings"]["ask_when_one_choice"] = "maybe"
    refused = await refusal(
        app.campaign_import(caller(GM, "Gina", channel=CHANNEL + 1), filename, yaml.safe_dump(document).encode())
    )
    assert "settings.ask_when_one_choice: must be yes or no, not “maybe”" in refused.message
    document["settings"]["ask_when_one_choice"] = True
    taken = await app.campaign_import(
        caller(GM, "Gina", channel=CHANNEL + 1), filename, yaml.safe_dump(document).encode()
    )
    assert taken.cards[0].title != "Not done"


async def test_campaign_import_into_this_campaign_is_for_its_game_master_between_battles(app: App, forced) -> None:
    await ssg_table(app, forced)
    data = (await app.campaign_export(RITA)).files[0][1]
    with pytest.raises(Refusal, match="Only the game master may import a campaign file here"):
        await app.campaign_import(RITA, "c.yaml", data)
    with pytest.raises(Refusal, match="A game is in progress"):
        await app.campaign_import(GINA, "c.yaml", data)
    await app.game_end(GINA)
    reply = await app.campaign_import(GINA, "c.yaml", data)
    assert "12 unchanged" in reply.cards[0].description


async def test_campaign_import_checks_members_owners_and_rules_together(app: App) -> None:
    before = await everything(app)
    reply = await refusal(
        app.campaign_import(
            GINA,
            "c.yaml",
            y("""
        skirmish_gm: campaign
        ruleset: ssg
        name: Iron Coast
        house_rules:
          weapons:
            rifle: {short: 30}
        members:
          - {user: 2, name: Rita, side: red}
          - {user: 2, name: Rita again, side: red}
          - {user: 3, name: Bob, side: green, role: boss}
        sides:
          red:
            - {name: Rossi, kind: rifle, owner: 99}
        """),
        )
    )
    assert problems(reply) == [
        "line 6: weapons.rifle: short range 30 is more than long range 24",
    ]
    reply = await refusal(
        app.campaign_import(
            GINA,
            "c.yaml",
            y("""
        skirmish_gm: campaign
        ruleset: ssg
        name: Iron Coast
        members:
          - {user: 2, name: Rita, side: red}
          - {user: 2, name: Rita again, side: red}
          - {user: 3, name: Bob, side: green, role: boss}
        sides:
          red:
            - {name: Rossi, kind: rifle, owner: 99}
        """),
        )
    )
    assert problems(reply) == [
        "line 6: user 2 is listed twice",
        "line 7: a member's role is gm or player, not “boss”",
        "line 7: “green” is not a side here: use red, blue",
        "line 10: “Rossi”'s owner 99 is not a member of this campaign",
    ]
    assert await everything(app) == before
    reply = await app.campaign_import(
        GINA,
        "c.yaml",
        y("""
        ruleset: ssg
        name: Iron Coast
        members:
          - {user: 2, name: Rita, side: red}
        sides:
          red:
            - {name: Rossi, kind: rifle, owner: 2}
            - {name: Ada}
        """),
    )
    assert reply.cards[0].title == "Campaign imported"
    assert [(r[0], r[2], r[6]) for r in await roster(app)] == [("Rossi", "rifle", RED), ("Ada", "rifle", GM)]
    async with orm(app.store.db) as s:
        assert [(m.user_id, m.role, m.side) for m in await s.scalars(select(Member).order_by(Member.id))] == [
            (GM, "gm", None),
            (RED, "player", "red"),
        ]


async def test_a_campaign_file_needs_a_ruleset_and_a_name_to_start_a_campaign(app: App) -> None:
    found = problems(await refusal(app.campaign_import(GINA, "c.yaml", y("members: []\n"))))
    assert found == [
        "line 1: say which ruleset the file is for (ruleset: " + ", ".join(RULESETS) + ")",
        "line 1: a new campaign needs a name (name: The Peninsula)",
    ]
    found = problems(await refusal(app.campaign_import(GINA, "c.yaml", y("ruleset: ssg\n"))))
    assert found == ["line 1: a new campaign needs a name (name: The Peninsula)"]


# --- house rules -----------------------------------------------------------------------------------


async def test_house_rules_are_checked_by_the_ruleset_with_lines_and_kept_as_written(app: App) -> None:
    await medieval_table(app)
    reply = await refusal(
        app.rules_set(
            GINA,
            "house.yaml",
            y("""
        # our table's rules
        self_healing: maybe
        weapons:
          Bow: {range: 18, rnage: 3}
        hit_on: 4
        """),
        )
    )
    assert problems(reply) == [
        "line 2: self_healing: expected yes or no, got 'maybe'",
        "line 4: weapons.Bow.rnage is not a key of the ruleset's tables (/campaign rules show tables:True lists them)",
    ]
    text = y("""
        # our table's rules
        self_healing: true   # a man may bind his own wounds
        weapons:
          Bow: {range: 18}
        """)
    reply = await app.rules_set(GINA, "house.yaml", text)
    assert reply.cards[0].title == "House rules set" and not reply.ephemeral
    assert "self_healing: no → yes" in reply.cards[0].description
    assert "weapons.Bow.range: 15 → 18" in reply.cards[0].description
    assert get_engine("medieval", {"self_healing": True, "weapons": {"Bow": {"range": 18}}}).tables.self_healing
    shown = await app.rules_show(RITA)
    assert shown.files == [("house-rules-northumbria.yaml", text)]
    [card] = shown.cards
    switches_field = "\n".join(v for n, v, _ in card.fields if n.startswith("Switches"))
    assert "`self_healing`: **yes** (house rule; the rules say no)" in switches_field
    assert "`natural_one_misses`: **no** " not in switches_field and "`natural_one_misses`: **no**" in switches_field
    with_tables = await app.rules_show(caller(STRANGER), tables=True)
    assert [n for n, _ in with_tables.files] == ["house-rules-northumbria.yaml", "tables-medieval.yaml"]
    async with orm(app.store.db) as s:
        campaign = await s.scalar(select(Campaign))
        assert campaign.house_rules == {"self_healing": True, "weapons": {"Bow": {"range": 18}}}
        assert campaign.settings[HOUSE_RULES_TEXT] == text.decode()


async def test_house_rules_that_would_break_the_rosters_are_refused(app: App) -> None:
    await medieval_table(app)
    await app.roster_add(RITA, "Ada", "custom", stats="speed=6 bravery=4 shoot=3 fight=3")
    reply = await refusal(
        app.rules_set(GINA, "h.yaml", y("sides: [english, scots]\ncustom_limits: {speed: {low: 0, high: 4}}\n"))
    )
    assert problems(reply) == [
        "the roster's “Ada” fights for red, which these rules do not have",
        "“Rita” plays red, which these rules do not have",
        "“Bob” plays blue, which these rules do not have",
    ]
    reply = await refusal(app.rules_set(GINA, "h.yaml", y("custom_limits: {speed: {low: 0, high: 4}}\n")))
    assert problems(reply) == ["the roster's “Ada”: “Ada”'s speed must be from 0 to 4, not 6."]


async def test_house_rules_are_the_game_masters_and_wait_for_the_end_of_a_battle(app: App, forced) -> None:
    await ssg_table(app, forced)
    with pytest.raises(Refusal, match="Only the game master may set house rules"):
        await app.rules_set(RITA, "h.yaml", b"move_max_inches: 6\n")
    with pytest.raises(Refusal, match="between battles"):
        await app.rules_set(GINA, "h.yaml", b"move_max_inches: 6\n")
    await app.game_end(GINA)
    await app.rules_set(GINA, "h.yaml", b"move_max_inches: 6\n")
    with pytest.raises(Refusal, match="Only the game master may clear"):
        await app.rules_clear(RITA)
    cleared = await app.rules_clear(GINA)
    assert cleared.cards[0].title == "House rules cleared"
    with pytest.raises(Refusal, match="no house rules to clear"):
        await app.rules_clear(GINA)
    shown = await app.rules_show(RITA)
    assert shown.files == [] and shown.cards[0].description.startswith("None: Simple Skirmish Game as published")


async def test_house_rules_change_what_an_import_accepts(app: App) -> None:
    await app.campaign_new(GINA, "Iron Coast", "ssg", "table")
    await join(app, RED, "Rita", "red")
    await app.rules_set(GINA, "h.yaml", y("weapons:\n  laser: {short: 20, long: 40, rof: 2}\n"))
    reply = await app.roster_import(RITA, "r.yaml", y("sides: {red: [{name: Zap, kind: Laser}]}"))
    assert reply.cards[0].title == "Roster imported"
    assert (await roster(app))[0][2] == "laser"


# --- the round trip ----------------------------------------------------------------------------------

TRICKY = [
    "yes",
    "no",
    "null",
    "~",
    "2024-05-01",
    "1e3",
    "0x10",
    "- x",
    "#c",
    "a: b",
    "'",
    '"',
    "\\",
    "@everyone",
    "line\nbreak",
    "\t",
    "🧨",
    "",
    " ",
    "007",
    "true",
]
JSON_TEXT = st.one_of(
    st.sampled_from(TRICKY),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=20),
)
JSON_VALUE = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**53), 2**53),
        JSON_TEXT,
        st.floats(allow_nan=False, allow_infinity=False, width=64),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(JSON_TEXT, inner, max_size=3)),
    max_leaves=8,
)
STATUSES = ["active", "active", "dead", "wounded", "missing 2 games"]


def names() -> st.SearchStrategy[str]:
    raw = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=0, max_size=70)
    return (
        st.builds(lambda head, tail: head + tail, st.sampled_from(list("AbZ9éЖ")), raw)
        .map(lambda n: " ".join(n.split())[:64].strip())
        .filter(lambda n: any(ch.isalnum() for ch in n))
        .filter(name_allowed)
    )


def name_allowed(name: str) -> bool:
    """Whether a name passes the name check (no mention, markdown or invisible character)."""
    try:
        refuse_unsafe(name, "figure")
    except Refusal:
        return False
    return True


@st.composite
def ssg_figure(draw: Any) -> dict[str, Any]:
    return {"kind": draw(st.sampled_from(["rifle", "pistol", "smg", "submachine gun", "Rifles"])), "stats": {}}


@st.composite
def medieval_figure(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(["Knight", "Man at Arms", "Viking Warrior", "Viking Hero", "custom"]))
    stats: dict[str, Any] = {}
    if kind == "custom":
        stats = {
            "speed": draw(st.integers(0, 24)),
            "bravery": draw(st.integers(0, 12)),
            "shoot": draw(st.integers(0, 12)),
            "fight": draw(st.integers(0, 12)),
        }
    if draw(st.booleans()):
        stats["weapons"] = (
            "+".join(draw(st.lists(st.sampled_from(["Sword", "Dagger", "Bow", "Greatsword"]), max_size=3, unique=True)))
            or "none"
        )
    if draw(st.booleans()):
        body = draw(st.sampled_from([None, "Leather", "Mailshirt", "Chainmail", "Plate"]))
        shield = draw(st.sampled_from([None, "Large Shield", "Small Shield"]))
        stats["armour"] = "+".join(p for p in (body, shield) if p) or "none"
    return {"kind": kind, "stats": stats}


def spelled(draw: Any, word: str) -> str:
    """A word as a player may type it: the rulesets read capitals and spaces loosely."""
    return draw(st.sampled_from([word, word.upper(), word.capitalize(), f" {word} "]))


def yes_no(draw: Any, value: bool, on_off: bool = True) -> Any:
    """yes or no as a player may write it (Sharpe does not read on and off)."""
    words = ["yes", "Y", True, "on"] if value else ["no", "n", False, "off"]
    return draw(st.sampled_from(words if on_off else words[:3]))


SHARPE_STATS = {
    "I": ["I", "i", "initiative"],
    "D": ["D", "dexterity"],
    "S": ["S", "strength"],
    "C": ["C", "close_combat", "combat"],
    "F": ["F", "firing", "firing_skill"],
}


@st.composite
def sharpe_figure(draw: Any, tables: Any) -> dict[str, Any]:
    """A Sharpe figure of any kind (by key, label or alias). Each of I, D, S, C and F is given or
    left out, to be rolled at recruitment (``dice`` seeds the roll) and then kept by the roster."""
    key = draw(st.sampled_from(sorted(tables.kinds)))
    kind = tables.kinds[key]
    stats: dict[str, Any] = {}
    for stat in ["F"] if kind.piece else list(SHARPE_STATS):
        if draw(st.booleans()):
            low, high = tables.given_firing_range if stat == "F" else tables.given_ability_range
            stats[draw(st.sampled_from(SHARPE_STATS[stat]))] = draw(st.integers(low, high))
    if not kind.piece:
        carried = sorted(w for w, weapon in tables.weapons.items() if not weapon.piece)
        if draw(st.booleans()):
            chosen = draw(st.lists(st.sampled_from(carried), min_size=1, max_size=3))
            stats[draw(st.sampled_from(["weapons", "weapon"]))] = "+".join(
                draw(st.sampled_from([w, tables.weapons[w].label, w.upper()])) for w in chosen
            )
        if draw(st.booleans()):
            stats[draw(st.sampled_from(["horse", "mounted"]))] = yes_no(draw, draw(st.booleans()), on_off=False)
    return {
        "kind": draw(st.sampled_from([key, kind.label, *kind.aliases])),
        "stats": stats,
        "dice": draw(st.integers(0, 2**32)),
    }


@st.composite
def nsr_figure(draw: Any, tables: Any) -> dict[str, Any]:
    """An NSR unit of any troop type: its make-up given in part (the rest from ``unit_defaults``,
    written out in full at recruitment), within what the rules allow together."""
    troop = draw(st.sampled_from(list(tables.troop_types)))
    d = tables.unit_defaults[troop]
    stats: dict[str, Any] = {}
    counts = {
        "officers": d.officers,
        "ncos": d.ncos,
        "sappers": 0,
        "key": 0,
        "standard": d.standard,
        "musician": d.musician,
    }
    for key in ("officers", "ncos"):
        how = draw(st.sampled_from(["default", "flag", "count"]))
        if how == "flag":
            counts[key] = int(draw(st.booleans()))
            stats[key[:-1]] = yes_no(draw, bool(counts[key]))
        elif how == "count":
            counts[key] = stats[key] = draw(st.integers(0, 3))
    for key in ("sappers", "key", "standard", "musician"):
        if draw(st.booleans()):
            counts[key] = stats[key] = draw(st.integers(0, 2))
    leaders = sum(counts.values())
    if leaders + 1 > d.figures or draw(st.booleans()):  # room for every leader and one more (a gunner)
        stats["figures"] = leaders + draw(st.integers(1, 30))
    weapons = ["artillery"] if troop == "artillery" else [w for w in tables.weapons if w != "artillery"]
    if draw(st.booleans()):
        stats["weapon"] = spelled(draw, draw(st.sampled_from(weapons)))
    if draw(st.booleans()):
        stats["melee"] = spelled(draw, draw(st.sampled_from(list(tables.melee_weapons))))
    if draw(st.booleans()):
        formation = draw(st.sampled_from(sorted(tables.movement_dice[troop])))
        stats["formation"] = draw(st.sampled_from([formation, formation.replace("_", " ").title()]))
    if draw(st.booleans()):
        stats["commander"] = yes_no(draw, counts["officers"] > 0 and draw(st.booleans()))
    if draw(st.booleans()):
        stats["british"] = yes_no(draw, troop == "artillery" and draw(st.booleans()))
    if draw(st.booleans()):
        stats["pistols"] = yes_no(draw, draw(st.booleans()))
    if troop == "command" and draw(st.booleans()):
        stats["attached"] = draw(names())
    stats = {draw(st.sampled_from([k, k.upper()])): v for k, v in stats.items()}
    aliases = [alias for alias, target in tables.kind_aliases.items() if target == troop]
    return {"kind": draw(st.sampled_from([troop, troop.upper(), *aliases])), "stats": stats}


@st.composite
def yasg_figure(draw: Any, tables: Any) -> dict[str, Any]:
    """A YASG figure: a starting class in any spelling, maybe the leader, maybe a weapon named
    (the default one is not kept)."""
    letter = draw(st.sampled_from(list(tables.initial_classes)))
    stats: dict[str, Any] = {}
    if draw(st.booleans()):
        stats["leader"] = yes_no(draw, draw(st.booleans()))
    if draw(st.booleans()):
        stats["weapon"] = spelled(draw, draw(st.sampled_from(sorted(tables.weapons))))
    kind = draw(st.sampled_from([letter, letter.lower(), f"class {letter}", f"{letter} class", f"Class-{letter}"]))
    return {"kind": kind, "stats": stats}


@st.composite
def rosters(draw: Any, figure: Any, sides: tuple[str, str] = ("red", "blue")) -> list[dict[str, Any]]:
    chosen = draw(
        st.lists(names(), max_size=8, unique_by=(lambda n: look_alike_keys(n)[0], lambda n: look_alike_keys(n)[1]))
    )
    out = []
    for name in chosen:
        spec = draw(figure)
        out.append(
            {
                **spec,
                "name": clean_name(name, "figure"),
                "side": draw(st.sampled_from(sides)),
                "status": draw(st.sampled_from(STATUSES)),
                "history": draw(st.lists(JSON_VALUE, max_size=3)),
                "owner": draw(st.sampled_from([GM, RED, BLUE])),
            }
        )
    return out


_channels = itertools.count(50_000)


async def seed(
    app: App, ruleset: str, figures: list[dict[str, Any]], channel: int, house_rules: dict[str, Any] | None = None
) -> None:
    """A campaign written straight into the database (not through import), its figures recruited
    as /roster add recruits them (what the rules roll, and the figure does not give, rolled with
    the figure's own ``dice``) and kept as the ruleset keeps them."""
    engine = get_engine(ruleset, house_rules)
    async with orm(app.store.db) as s:
        campaign = Campaign(
            guild_id=1001,
            channel_id=channel,
            name=f"Trip {channel}",
            ruleset=ruleset,
            gm_id=GM,
            active=True,
            settings={},
            house_rules=house_rules,
        )
        s.add(campaign)
        await s.flush()
        first, second = engine.sides()
        s.add_all(
            [
                Member(campaign_id=campaign.id, user_id=GM, display_name="Gina", role="gm", side=first),
                Member(campaign_id=campaign.id, user_id=RED, display_name="Rita", role="player", side=first),
                Member(campaign_id=campaign.id, user_id=BLUE, display_name="Bob", role="player", side=second),
            ]
        )
        for f in figures:
            recruited = engine.recruit(
                FigureSpec(f["name"], f["side"], f["kind"], f["stats"]), RandomDice(f.get("dice", 0))
            )
            spec = recruited.state
            s.add(
                Figure(
                    campaign_id=campaign.id,
                    owner_id=f["owner"],
                    name=spec.name,
                    side=spec.side,
                    kind=spec.kind,
                    stats=dict(spec.stats),
                    status=f["status"],
                    history=f["history"],
                )
            )


def without_owner(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return sorted((r[:-1] for r in rows), key=lambda r: r[0])


def by_name(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """A file lists figures side by side: the order within a side is kept, not across sides."""
    return sorted(rows, key=lambda r: r[0])


def trip_settings() -> Any:
    return settings(
        max_examples=int(__import__("os").environ.get("TRIP_EXAMPLES", "20")),
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


async def round_trip(
    app: App, ruleset: str, figures: list[dict[str, Any]], house_rules: dict[str, Any] | None = None
) -> None:
    source, target, moved = next(_channels), next(_channels), next(_channels)
    await seed(app, ruleset, figures, source, house_rules)
    gm_there = caller(GM, "Gina", channel=source)
    exported = (await app.roster_export(gm_there, "all")).files[0][1]
    # The roster file into another campaign of the same ruleset (and house rules): the same
    # figures, and not a die rolled (the app's dice are forced ones, and none are forced): what
    # was rolled at recruitment is in the file.
    await app.campaign_new(caller(GM, "Gina", channel=target), f"Target {target}", ruleset)
    if house_rules is not None:
        set_rules = await app.rules_set(
            caller(GM, "Gina", channel=target), "house.yaml", yaml.safe_dump(house_rules).encode()
        )
        assert set_rules.cards[0].title == "House rules set", set_rules.cards[0].description
    reply = await app.roster_import(caller(GM, "Gina", channel=target), "roster.yaml", exported)
    assert reply.cards[0].title in ("Roster imported", "Nothing to change"), reply.cards[0].description
    assert reply.rolls == []
    assert without_owner(await roster(app, target)) == without_owner(await roster(app, source))
    back = (await app.roster_export(caller(GM, "Gina", channel=target), "all")).files[0][1]
    assert yaml.safe_load(back)["sides"] == yaml.safe_load(exported)["sides"]
    # Into the campaign it came from: nothing to change.
    same = await app.roster_import(gm_there, "roster.yaml", exported)
    assert same.cards[0].title == "Nothing to change", same.cards[0].description
    # The campaign file to a new channel: the same rosters, owners too, and the same file again.
    whole = (await app.campaign_export(gm_there)).files[0][1]
    await app.campaign_import(caller(GM, "Gina", channel=moved), "campaign.yaml", whole)
    assert by_name(await roster(app, moved)) == by_name(await roster(app, source))
    assert (await app.campaign_export(caller(GM, "Gina", channel=moved))).files[0][1] == whole


@trip_settings()
@given(figures=rosters(ssg_figure()))
async def test_an_ssg_roster_comes_back_from_its_file_the_same(app: App, figures: list[dict[str, Any]]) -> None:
    await round_trip(app, "ssg", figures)


@trip_settings()
@given(figures=rosters(medieval_figure()))
async def test_a_medieval_roster_comes_back_from_its_file_the_same(app: App, figures: list[dict[str, Any]]) -> None:
    await round_trip(app, "medieval", figures)


@trip_settings()
@given(figures=rosters(sharpe_figure(get_engine("sharpe").tables), ("british", "french")))
async def test_a_sharpe_roster_comes_back_from_its_file_the_same(app: App, figures: list[dict[str, Any]]) -> None:
    await round_trip(app, "sharpe", figures)


@trip_settings()
@given(figures=rosters(nsr_figure(get_engine("nsr").tables), ("French", "Allied")))
async def test_an_nsr_roster_comes_back_from_its_file_the_same(app: App, figures: list[dict[str, Any]]) -> None:
    await round_trip(app, "nsr", figures)


@trip_settings()
@given(figures=rosters(yasg_figure(get_engine("yasg").t), ("british", "french")))
async def test_a_yasg_roster_comes_back_from_its_file_the_same(app: App, figures: list[dict[str, Any]]) -> None:
    await round_trip(app, "yasg", figures)


#: House rules a round trip is played under: what they add is taken in the figures, and a
#: campaign file carries them (its figures are read under them).
SHARPE_HOUSE = {
    "given_ability_range": [1, 7],
    "weapons": {"axe": {"label": "felling axe", "melee": True, "hands": 2}},
    "kinds": {
        "pioneer": {
            "label": "pioneer",
            "aliases": ["sapper"],
            "weapons": ["musket", "axe"],
            "firing_base": 5,
            "firing_die": True,
        }
    },
}
YASG_HOUSE = {"weapons": {"pike": {"fires": False, "close_combat": 2}}}


@trip_settings()
@given(figures=rosters(sharpe_figure(get_engine("sharpe", SHARPE_HOUSE).tables), ("british", "french")))
async def test_a_sharpe_roster_under_house_rules_comes_back_the_same(app: App, figures: list[dict[str, Any]]) -> None:
    await round_trip(app, "sharpe", figures, SHARPE_HOUSE)


@trip_settings()
@given(figures=rosters(yasg_figure(get_engine("yasg", YASG_HOUSE).t), ("british", "french")))
async def test_a_yasg_roster_under_house_rules_comes_back_the_same(app: App, figures: list[dict[str, Any]]) -> None:
    await round_trip(app, "yasg", figures, YASG_HOUSE)


def test_the_strategies_reach_what_a_roster_keeps() -> None:
    """The generated figures cover what matters: stats left to be rolled at recruitment, guns,
    kit, command groups, British guns, several officers and a commander, a weapon a house rule adds."""
    from hypothesis import find

    def folded(f: dict[str, Any]) -> dict[str, Any]:
        return {str(k).casefold(): v for k, v in f["stats"].items()}

    yes = ("yes", "Y", True, "on")
    sharpe = get_engine("sharpe")
    guns = {"gun", "artillery piece", "artillery", "cannon", "piece"}
    left = find(
        sharpe_figure(sharpe.tables), lambda f: f["kind"] not in guns and not {"i", "initiative"} & set(folded(f))
    )
    recruited = sharpe.recruit(FigureSpec("Hale", "british", left["kind"], left["stats"]), RandomDice(left["dice"]))
    assert 1 <= recruited.state.stats["I"] <= 6 and recruited.events  # rolled, and the roll told
    find(sharpe_figure(sharpe.tables), lambda f: f["kind"] in guns and {"f", "firing", "firing_skill"} & set(folded(f)))
    find(sharpe_figure(sharpe.tables), lambda f: str(folded(f).get("weapons", "")).count("+") == 2)
    nsr = get_engine("nsr").tables
    find(
        nsr_figure(nsr),
        lambda f: f["kind"].casefold() in ("command", "command group", "staff") and "attached" in folded(f),
    )
    find(
        nsr_figure(nsr),
        lambda f: f["kind"].casefold() in ("artillery", "gun", "battery") and folded(f).get("british") in yes,
    )
    find(nsr_figure(nsr), lambda f: folded(f).get("officers", 0) >= 2 and folded(f).get("commander") in yes)
    find(
        yasg_figure(get_engine("yasg", YASG_HOUSE).t),
        lambda f: str(f["stats"].get("weapon")).strip().casefold() == "pike",
    )


def test_the_tables_of_each_ruleset_read_by_this_reader_match_pyyaml() -> None:
    """The reader keeps dates as text and lines aside; otherwise it reads what yaml.safe_load reads
    (so house rules mean what they would mean in the ruleset's own tables.yaml)."""
    from bot.app.switches import tables_text

    for slug in RULESETS:
        assert read(tables_text(slug).encode()).data == yaml.safe_load(tables_text(slug))


def test_a_broken_engine_is_a_problem_not_a_crash(monkeypatch) -> None:
    from bot.app import campaign_file

    def explode(slug: str, rules: Any) -> Any:
        raise KeyError("surprise")

    monkeypatch.setattr(campaign_file, "get_engine", explode)
    found: list[str] = []
    assert campaign_file.build_engine(read(b"a: 1\n"), "ssg", {"a": 1}, found) is None
    assert found and "cannot be built" in found[0]
    with pytest.raises(DataError):
        get_engine("ssg", {"weapons": "none"})
    assert isinstance(DataError(["x"]), RuleError)


class RollingEngine:
    """A ruleset that rolls a figure's I once, at recruitment, when the roster does not give it."""

    slug = "rolling"
    roster_entry = "figure"

    def sides(self) -> list[str]:
        return ["red", "blue"]

    def check_figure(self, spec: FigureSpec) -> FigureSpec:
        return FigureSpec(spec.name, spec.side, spec.kind or "man", dict(spec.stats))

    def recruit(self, spec: FigureSpec, dice: Any) -> Any:
        from rules.core import Event, Outcome

        stats = dict(spec.stats)
        if "I" not in stats:
            stats["I"] = dice.roll(6, f"{spec.name}: I")
        return Outcome(
            self.check_figure(FigureSpec(spec.name, spec.side, spec.kind, stats)),
            [Event("recruit", f"{spec.name} has I {stats['I']}")],
        )


def test_rolled_stats_are_rolled_for_newcomers_and_never_again(forced) -> None:
    from bot.app.roster_file import Importer, Kept, read_sides
    from bot.dice import RecordingDice

    kept = [Kept(1, "Rossi", "red", "man", {"I": 3}, "active", [], RED)]
    dice = RecordingDice(forced)
    found: list[str] = []
    forced.push_dice([4])
    doc = read(
        y("""
        sides:
          red:
            - name: Rossi
            - name: Ada
        """)
    )
    read_sides(doc, ("sides",), RollingEngine(), Importer(RED, False, "red"), kept, dice, found)  # type: ignore[arg-type]
    assert found == [
        "line 3: “Rossi” lacks stats the rules roll once, at recruitment: keep them as the export wrote them"
    ]
    forced.push_dice([5])
    dice.rolled.clear()
    found = []
    doc = read(y("sides: {red: [{name: Rossi, stats: {I: 3}}, {name: Ada}]}"))
    plan = read_sides(doc, ("sides",), RollingEngine(), Importer(RED, False, "red"), kept, dice, found)  # type: ignore[arg-type]
    assert found == [] and [e.stats for e in plan.same] == [{"I": 3}] and [e.stats for e in plan.new] == [{"I": 5}]
    assert [r.reason for r in dice.rolled] == ["Ada: I"] and [e.text for e in plan.events] == ["Ada has I 5"]


# --- the documented examples import ------------------------------------------------------------------

DOC = __import__("pathlib").Path(__file__).resolve().parents[2] / "docs" / "formats.md"


def doc_examples() -> list[tuple[str, str, bytes]]:
    """Each ```yaml block of docs/formats.md whose first line is ``# example: <what> <ruleset>``."""
    import re

    found = []
    for block in re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        head = re.match(r"# example: (roster|campaign|house-rules) (\w+)\n", block)
        if head:
            found.append((head[1], head[2], block.encode()))
    return found


def test_the_documentation_has_an_example_of_each_kind() -> None:
    kinds = {(what, slug) for what, slug, _ in doc_examples()}
    assert {("campaign", "ssg")} | {(what, slug) for what in ("roster", "house-rules") for slug in RULESETS} <= kinds


@pytest.mark.parametrize("what,slug,data", doc_examples(), ids=[f"{w}-{s}" for w, s, _ in doc_examples()])
async def test_each_documented_example_imports(app: App, what: str, slug: str, data: bytes) -> None:
    if what == "campaign":
        reply = await app.campaign_import(GINA, "example.yaml", data)
        assert reply.cards[0].title == "Campaign imported", reply.cards[0].description
        return
    await app.campaign_new(GINA, "Docs", slug)
    if what == "roster":
        reply = await app.roster_import(GINA, "example.yaml", data)
        assert reply.cards[0].title == "Roster imported", reply.cards[0].description
    else:
        reply = await app.rules_set(GINA, "example.yaml", data)
        assert reply.cards[0].title == "House rules set", reply.cards[0].description


#: The roster examples made by /roster export (those of SSG and medieval are written by hand: an
#: export of them writes the empty side, and a kit as its names joined with +).
ROSTER_EXAMPLES = [
    (slug, data) for what, slug, data in doc_examples() if what == "roster" and slug in ("sharpe", "nsr", "yasg")
]


@pytest.mark.parametrize("slug,data", ROSTER_EXAMPLES, ids=[slug for slug, _ in ROSTER_EXAMPLES])
async def test_a_documented_roster_is_what_the_export_writes(app: App, slug: str, data: bytes) -> None:
    """Imported, then exported, each comes back line for line (from ``sides:`` on: the header
    names the campaign it is exported from), rolled stats and all, and no die is rolled."""
    await app.campaign_new(GINA, "Docs", slug)
    reply = await app.roster_import(GINA, "example.yaml", data)
    assert reply.cards[0].title == "Roster imported" and reply.rolls == [], reply.cards[0].description
    exported = (await app.roster_export(GINA, "all")).files[0][1].decode()
    example = data.decode()
    assert exported[exported.index("\nsides:") :] == example[example.index("\nsides:") :]


async def test_a_campaign_file_answers_a_waiting_request_to_join(app: App) -> None:
    from bot.store.schema import DecisionRecord

    await app.campaign_new(GINA, "Iron Coast", "ssg", "table")
    asked = await app.campaign_join(RITA, "blue")
    assert asked.decision is not None
    reply = await app.campaign_import(
        GINA,
        "c.yaml",
        y("""
        ruleset: ssg
        members:
          - {user: 2, name: Rita, side: red}
        """),
    )
    assert "Rita's request to join is granted" in {n: v for n, v, _ in reply.cards[0].fields}["Members"]
    async with orm(app.store.db) as s:
        member = await s.scalar(select(Member).where(Member.user_id == RED))
        assert (member.role, member.side) == ("player", "red")
        assert await s.scalar(select(DecisionRecord.status)) == "cancelled"
    with pytest.raises(Refusal):
        await app.decide(GINA, "approve", asked.decision.decision_id)


# --- hostile files ------------------------------------------------------------------------------------

FIGURE_ISH = st.dictionaries(
    st.sampled_from(["name", "kind", "stats", "status", "history", "owner", "x"]), JSON_VALUE, max_size=6
)
FILE_ISH = st.one_of(
    st.dictionaries(
        st.sampled_from(
            ["skirmish_gm", "version", "ruleset", "sides", "campaign", "members", "settings", "house_rules", "name"]
        ),
        st.one_of(
            JSON_VALUE,
            st.dictionaries(
                st.sampled_from(["red", "blue", "green", "1"]), st.lists(st.one_of(FIGURE_ISH, JSON_VALUE), max_size=4)
            ),
        ),
    ),
    JSON_VALUE,
)


@settings(
    max_examples=int(__import__("os").environ.get("FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    content=st.one_of(
        FILE_ISH.map(lambda v: yaml.safe_dump(v, allow_unicode=True).encode()),
        st.binary(max_size=200),
        st.text(max_size=200).map(str.encode),
    ),
    command=st.sampled_from(["roster_import", "campaign_import", "rules_set"]),
    who=st.sampled_from([GINA, RITA]),
)
async def test_any_file_gets_an_answer_and_a_refused_one_changes_nothing(
    app: App, content: bytes, command: str, who: Any
) -> None:
    channel = next(_channels)
    here = caller(who.user_id, who.display_name, channel=channel)
    await app.campaign_new(caller(GM, "Gina", channel=channel), "Fuzz", "medieval", "table")
    await app.campaign_join(caller(GM, "Gina", channel=channel), "red")
    before = await everything(app)
    try:
        reply = await getattr(app, command)(here, "f.yaml", content)
    except FileRefused as exc:  # every problem, a line each
        assert problems(exc)
        assert await everything(app) == before
        return
    except Refusal as exc:
        assert exc.message and "\n" not in exc.message
        assert await everything(app) == before
        return
    assert isinstance(reply, Reply) and reply.cards[0].title != "Not done"


def test_a_house_rule_on_a_list_names_what_differs_not_the_list_cut_short_twice() -> None:
    table = [{"upto": 6, "mod": 1}, {"upto": 24, "mod": 0}, {"upto": 36, "mod": -1}, {"upto": 48, "mod": -2}]
    closer = [dict(table[0]), dict(table[1]), {"upto": 30, "mod": -1}, dict(table[3])]
    assert changes("sharpe", {"weapons": {"musket": {"ranges": closer}}}) == ["weapons.musket.ranges[2].upto: 36 → 30"]
    assert changes("sharpe", {"weapons": {"musket": {"ranges": table[:3]}}}) == [
        "weapons.musket.ranges: 4 items → 3 items; from [3]: [{'upto': 48, 'mod': -2}] → []"
    ]


# --- issue 26: an import says every setting it changes, and bounds every number --------------------


def campaign_file(settings: dict[str, Any] | None, members: list[dict[str, Any]] | None = None) -> bytes:
    data: dict[str, Any] = {"skirmish_gm": "campaign", "version": 1, "ruleset": "ssg"}
    if settings is not None:
        data["settings"] = settings
    if members is not None:
        data["members"] = members
    return yaml.safe_dump(data).encode()


def card_field(reply: Reply, name: str) -> str:
    return next(value for field, value, _ in reply.cards[0].fields if field == name)


async def test_an_import_keeps_the_settings_it_omits_and_lists_every_change(app: App) -> None:
    """Issue 26: a file without the battlefield turned a map campaign into a table one, unsaid."""
    await ssg_campaign(app)
    await app.set_deadline(GINA, 24.0, "pass")
    before = await everything(app)
    kept = await app.campaign_import(GINA, "c.yaml", campaign_file({"battles_before": 2}))
    assert kept.cards[0].title == "Campaign imported", kept.cards[0].description
    assert card_field(kept, "Settings") == "battles\\_before: 2"
    async with orm(app.store.db) as s:
        settings = (await s.scalar(select(Campaign))).settings
    assert settings["battlefield"] == "map" and settings["pace"]["hours"] == 24 and settings["battles_before"] == 2

    changed = await app.campaign_import(
        GINA, "c.yaml", campaign_file({"battlefield": "table", "pace": None, "battles_before": 2})
    )
    assert card_field(changed, "Settings").splitlines() == [
        "battlefield: map → table",
        "pace: hours: 24.0, on\\_timeout: pass, remind\\_at: 0.75 → none",
    ]
    same = await app.campaign_import(GINA, "c.yaml", campaign_file({"battlefield": "table"}))
    assert card_field(same, "Settings") == "unchanged"
    assert (await everything(app))[2] == before[2]


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        (
            {"battles_before": 2147483647},
            "settings.battles_before: must be a whole number from 0 to 100000, not “2147483647”",
        ),
        ({"pace": {"hours": 1e12}}, "settings.pace: hours must be a number from 0.25 to 720, not “1000000000000.0”"),
        (
            {"pace": {"hours": 24, "remind_at": 7}},
            "settings.pace: remind_at must be a number from 0.1 to 0.95, not “7”",
        ),
        ({"pace": {"hours": 24, "on_timeout": "never"}}, "settings.pace: on_timeout must be pass or gm, not “never”"),
        (
            {"turns": 10**30},
            "settings: there is no setting “turns”; use battles_before, battlefield, ask_when_one_choice, pace, map",
        ),
    ],
)
async def test_every_number_of_a_campaign_file_is_bounded(app: App, settings: dict[str, Any], expected: str) -> None:
    await ssg_campaign(app)
    before = await everything(app)
    refused = await refusal(app.campaign_import(GINA, "c.yaml", campaign_file(settings)))
    assert [p.split(": ", 1)[1] for p in problems(refused)] == [expected]
    assert await everything(app) == before


async def test_a_member_id_or_a_history_number_past_its_bound_is_refused(app: App) -> None:
    await ssg_campaign(app)
    before = await everything(app)
    huge = campaign_file(None, [{"user": 2**64, "name": "Zed", "role": "player", "side": "red"}])
    assert any(
        "from 1 to 9223372036854775807" in p for p in problems(await refusal(app.campaign_import(GINA, "c.yaml", huge)))
    )
    history = y(
        """
        sides:
          red:
            - name: Rossi
              kind: rifle
              history: [{battle: 2147483647, games_out: 1}]
        """
    )
    assert problems(await refusal(app.roster_import(GINA, "r.yaml", history))) == [
        "line 5: “Rossi”'s history: battle must be a whole number from 1 to 100000, not 2147483647"
    ]
    assert await everything(app) == before


async def test_an_import_that_gives_the_game_master_a_side_says_so(app: App) -> None:
    await ssg_campaign(app)
    gives = campaign_file(None, [{"user": GM, "name": "Gina", "role": "gm", "side": "red"}])
    reply = await app.campaign_import(GINA, "c.yaml", gives)
    assert "Gina (game master) plays red: as a player, her /game undo" in card_field(reply, "Members")


async def test_every_number_of_house_rules_is_bounded(app: App) -> None:
    await ssg_campaign(app)
    before = await everything(app)
    refused = await refusal(
        app.rules_set(GINA, "h.yaml", y("move_max_inches: 1.0e+308\nweapons:\n  rifle: {long: 99999999}\n"))
    )
    assert problems(refused) == [
        "line 1: move_max_inches: a house rule's number is from -10000 to 10000, not “1e+308”",
        "line 3: weapons.rifle.long: a house rule's number is from -10000 to 10000, not “99999999”",
    ]
    file = campaign_file(None)[:-1] + b"\nhouse_rules: {figures_per_side: 1000000000000}\n"
    assert [p.split(": ", 1)[1] for p in problems(await refusal(app.campaign_import(GINA, "c.yaml", file)))] == [
        "figures_per_side: a house rule's number is from -10000 to 10000, not “1000000000000”"
    ]
    assert await everything(app) == before
