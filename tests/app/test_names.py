"""Names that cannot hurt (issue 19): figure, unit and campaign names refuse mentions, markdown and
invisible characters, each with a sentence naming it; a name that looks like another in the
campaign is refused; ordinary names of every script are taken; old names show escaped."""

from __future__ import annotations

import pytest

from bot.app.lookalike import look_alike, looks_like, skeleton
from bot.app.name_rules import refuse_unsafe
from bot.app.replies import Refusal
from bot.app.service import App
from bot.app.yaml_format import FileRefused
from bot.dice import ForcedDice
from tests.app.test_exchange import BOB, GINA, RITA, everything, medieval_table, problems, y
from tests.support import BLUE, GM, RED, caller, join

REFUSED = [
    ("Rossi\u200b", "the zero-width space (U+200B)"),
    ("Ro\u200dssi", "the zero-width joiner (U+200D)"),
    ("Ro\u200cssi", "the zero-width non-joiner (U+200C)"),
    ("Rossi\u200e", "the left-to-right mark (U+200E)"),
    ("Ro\u2060ssi", "the word joiner (U+2060)"),
    ("Ro\u2062ssi", "the invisible times (U+2062)"),
    ("\ufeffRossi", "the zero-width no-break space (byte order mark) (U+FEFF)"),
    ("Ros\u00adsi", "the soft hyphen (U+00AD)"),
    ("Rossi\ufe0f", "a variation selector (U+FE0F)"),
    ("Rossi\U000e0041", "a tag character (U+E0041)"),
    ("Rossi\u202e", "the right-to-left override (U+202E)"),
    ("Big\nJim", "the line break (U+000A)"),
    ("Big\tJim", "the tab (U+0009)"),
    ("Ro\x1b[31mssi", "the escape character (U+001B)"),
    ("Big\u2028Jim", "the line separator (U+2028)"),
    ("Big\u2029Jim", "the paragraph separator (U+2029)"),
    ("\u3164", "the Hangul filler (U+3164)"),
    ("Rossi\ue000", "a private-use character (U+E000)"),
    ("Ro\x07ssi", "a control character (U+0007)"),
    ("<@123>", "a user mention (<@…>)"),
    ("<@!123>", "a user mention (<@…>)"),
    ("<@&456>", "a role mention (<@&…>)"),
    ("<#789>", "a channel mention (<#…>)"),
    ("</roster add:1234>", "a command mention (</…:…>)"),
    ("@everyone", "@everyone"),
    ("Hi @here", "@here"),
    ("**Bold**", "the asterisk (*)"),
    ("Jean_Luc", "the underscore (_)"),
    ("~~Gone~~", "the tilde (~)"),
    ("`Code`", "the backtick (`)"),
    ("||Spoiler||", "the vertical bar (|)"),
    ("> Quote", "the greater-than sign (>)"),
    ("# Header", "the hash sign (#)"),
    ("[Link](x)", "the square bracket ([)"),
    ("Back\\slash", "the backslash (\\)"),
]
ORDINARY = [
    "O'Brien",
    "Jean-Luc",
    "Big Jim",
    "Sgt. Harper",
    "Zoë",
    "José María",
    "Dmitri (the elder)",
    "Дмитрий",
    "Ἀχιλλεύς",
    "李小龙",
    "محمد",
    "Søren Ødegård",
    "No. 2 Gun",
]


@pytest.mark.parametrize("name,named", REFUSED, ids=[repr(n) for n, _ in REFUSED])
def test_each_refused_character_is_named(name: str, named: str) -> None:
    with pytest.raises(Refusal) as refused:
        refuse_unsafe(name, "figure")
    assert named in refused.value.message
    assert refused.value.message.startswith("A figure name may not hold")
    assert "\n" not in refused.value.message and len(refused.value.message) <= 300


def test_a_list_marker_at_the_start_and_a_link_are_refused() -> None:
    with pytest.raises(Refusal, match="may not start with - and a space: Discord shows it as a list"):
        refuse_unsafe("- Bob", "figure")
    with pytest.raises(Refusal, match=r"may not start with 1\. and a space"):
        refuse_unsafe("1. Bob", "figure")
    with pytest.raises(Refusal, match="may not hold a link"):
        refuse_unsafe("https://example.com", "figure")


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_names_of_every_script_pass(name: str) -> None:
    refuse_unsafe(name, "figure")


def test_look_alikes_by_script_width_and_case() -> None:
    assert looks_like("Rоssi", "Rossi")  # Cyrillic о (U+043E)
    assert looks_like("Ｒossi", "Rossi")  # fullwidth R
    assert looks_like("ROSSI", "Rossi")
    assert looks_like("Ivan", "lvan")  # a capital I looks like a small l
    assert looks_like("Jean–Luc", "Jean-Luc")  # an en dash
    assert look_alike("Rοssi", ["Big Jim", "Rossi"]) == "Rossi"  # Greek ο
    assert look_alike("Дмитрий", ["Dmitri", "Rossi", "Big Jim"]) is None
    assert not looks_like("Rössi", "Rossi")
    assert not looks_like("Bo", "Ben")
    assert skeleton("Rоssi") == skeleton("Rossi") == "Rossi"


# --- through the application --------------------------------------------------------------------


async def ssg_campaign(app: App) -> None:
    await app.campaign_new(caller(GM, "Gina"), "Test", "ssg", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    await app.roster_add(caller(RED, "Rita"), "Rossi", "rifle")


@pytest.mark.parametrize("name,named", REFUSED, ids=[repr(n) for n, _ in REFUSED])
async def test_roster_add_refuses_each_character_with_its_sentence(app: App, name: str, named: str) -> None:
    await ssg_campaign(app)
    with pytest.raises(Refusal) as refused:
        await app.roster_add(caller(RED, "Rita"), name, "rifle")
    assert f"A figure name may not hold {named}" in refused.value.message


async def test_an_nsr_unit_name_is_checked_and_named_a_unit(app: App) -> None:
    await app.campaign_new(caller(GM, "Gina"), "Talavera", "nsr", "table")
    await join(app, RED, "Rita", "French")
    with pytest.raises(Refusal, match=r"A unit name may not hold the asterisk \(\*\)"):
        await app.roster_add(caller(RED, "Rita"), "**1er Ligne**", "line", stats="figures=12")
    await app.roster_add(caller(RED, "Rita"), "1er Ligne", "line", stats="figures=12")
    with pytest.raises(Refusal, match="“1еr Ligne” looks like “1er Ligne”, already a unit in this campaign"):
        await app.roster_add(caller(RED, "Rita"), "1еr Ligne", "line", stats="figures=12")  # Cyrillic е


async def test_a_campaign_name_refuses_mentions_and_markdown(app: App) -> None:
    with pytest.raises(Refusal, match="A campaign name may not hold @everyone"):
        await app.campaign_new(caller(GM, "Gina"), "@everyone's war", "ssg")
    with pytest.raises(Refusal, match=r"A campaign name may not hold the zero-width space \(U\+200B\)"):
        await app.campaign_new(caller(GM, "Gina"), "Iron\u200bCoast", "ssg")
    await app.campaign_new(caller(GM, "Gina"), "Ödön's Raid", "ssg")


@pytest.mark.parametrize("name", ["Rоssi", "Ｒossi", "ROSSI", "Rοssi"])
async def test_a_figure_that_looks_like_another_on_any_side_is_refused(app: App, name: str) -> None:
    await ssg_campaign(app)
    for who in (caller(RED, "Rita"), caller(BLUE, "Bob")):
        with pytest.raises(Refusal, match="Rossi"):
            await app.roster_add(who, name, "rifle")


async def test_look_alike_sentence_names_the_figure_it_looks_like(app: App) -> None:
    await ssg_campaign(app)
    with pytest.raises(Refusal) as refused:
        await app.roster_add(caller(BLUE, "Bob"), "Rоssi", "rifle")
    assert refused.value.message == (
        "“Rоssi” looks like “Rossi”, already a figure in this campaign: choose a name players can tell apart."
    )


async def test_ordinary_names_are_taken(app: App) -> None:
    await ssg_campaign(app)
    for name in ORDINARY:
        reply = await app.roster_add(caller(RED, "Rita"), name, "rifle")
        assert reply.cards[0].title == "Recruited"


async def test_an_imported_roster_with_a_bad_name_reports_it_and_imports_nothing(app: App) -> None:
    await medieval_table(app)
    await app.roster_add(RITA, "Rossi", "Knight")
    await app.roster_add(BOB, "Ulf", "Viking Hero")
    before = await everything(app)
    with pytest.raises(FileRefused) as reply:
        await app.roster_import(
            RITA,
            "red.yaml",
            y("""
        ruleset: medieval
        sides:
          red:
            - name: Ada
              kind: Knight
            - name: "**Cy**"
              kind: Knight
            - name: "Dee\\u200b"
              kind: Knight
            - name: Rоssi
              kind: Knight
            - name: Аda
              kind: Knight
        """),
        )
    assert problems(reply.value) == [
        "line 6: A figure name may not hold the asterisk (*): Discord reads it as formatting.",
        "line 8: A figure name may not hold the zero-width space (U+200B): it cannot be seen, "
        "so two names could look the same. Type the name again without it.",
        "line 10: “Rоssi” looks like “Rossi”, a figure already in this campaign: choose a name players can tell apart",
        "line 12: “Аda” looks like “Ada”, a figure earlier in this file (line 4): choose a name players can tell apart",
    ]
    assert await everything(app) == before


async def test_a_campaign_file_with_a_bad_name_reports_it(app: App) -> None:
    with pytest.raises(FileRefused) as reply:
        await app.campaign_import(
            GINA,
            "c.yaml",
            y("""
        ruleset: ssg
        name: "<@&1> raid"
        sides:
          red:
            - {name: "Ro\\u00adssi"}
        """),
        )
    assert problems(reply.value) == [
        "line 2: A campaign name may not hold a role mention (<@&…>): on Discord it would ping or look like a ping.",
        "line 5: A figure name may not hold the soft hyphen (U+00AD): it cannot be seen, "
        "so two names could look the same. Type the name again without it.",
    ]
    assert (await everything(app))[0] == []


# --- old names, made before the check -----------------------------------------------------------

OLD = "**Old**_Bill <@1> @everyone"
ESCAPED = r"\*\*Old\*\*\_Bill \<@1\> @everyone"


async def old_name_in_the_database(app: App, forced: ForcedDice) -> None:
    """An SSG game whose red side holds a figure named before names were checked."""
    await app.campaign_new(caller(GM, "Gina"), "Test", "ssg", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    for name in ("Rossi", "Ada", "Cy", "Dee", "Eli"):
        await app.roster_add(caller(RED, "Rita"), name, "rifle")
    async with app.store.transaction() as u:
        campaign = await u.campaigns.active_in_channel(caller(GM).channel_id)
        assert campaign is not None
        await u.figures.add(campaign.id, owner_id=RED, name=OLD, side="red", kind="rifle", stats={})
    for name in ("Big Jim", "Bo", "Bert", "Bill", "Ben", "Bud"):
        await app.roster_add(caller(BLUE, "Bob"), name, "rifle")
    forced.push_dice([5, 2])
    await app.game_start(caller(GM, "Gina"))


async def test_an_old_name_with_markdown_shows_escaped_on_cards(app: App, forced: ForcedDice) -> None:
    await old_name_in_the_database(app, forced)
    shown = await app.roster_show(caller(RED, "Rita"), OLD)
    assert shown.cards[0].title == ESCAPED
    listed = await app.roster_list(caller(RED, "Rita"))
    assert f"{ESCAPED} — rifle" in {n: v for n, v, _ in listed.cards[0].fields}["Red (6)"]
    status = await app.game_status(caller(RED, "Rita"))
    red = next(v for n, v, _ in status.cards[0].fields if n == "Red")
    assert ESCAPED in red and OLD not in red


async def test_an_old_name_with_markdown_shows_escaped_in_the_report(app: App, forced: ForcedDice) -> None:
    await old_name_in_the_database(app, forced)
    moved = await app.act(caller(RED, "Rita"), "ssg", "move", {"figure": OLD, "distance": 1.0}, "/ssg move")
    assert moved.cards[0].description.startswith(f"{ESCAPED} ")
    log = await app.game_log(caller(GM, "Gina"))
    assert ESCAPED in log.cards[0].description and "**Old**" not in log.cards[0].description
    reply = await app.game_report(caller(GM, "Gina"))
    [(_, data)] = reply.files
    report = data.decode()
    assert r"\*\*Old\*\*\_Bill \<@1\>" in report
    assert "**Old**" not in report and "<@1>" not in report
