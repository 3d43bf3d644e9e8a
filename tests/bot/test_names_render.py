"""What players wrote, shown safely (issue 19): escaped for Discord's markdown on cards, plain and
without steering characters at the terminal, and drawn without a crash in any script."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.app.replies import Card
from bot.dice import RolledDie
from bot.render.battlefield import draw_field, figure_labels
from bot.render.cards import action_cards, card_text, casualty_card, plain, roll_line
from bot.render.fonts import drawable, font, glyph_pixels
from bot.render.fonts import plain as drawn_plain
from bot.render.shown import printable, shown, shown_event
from rules.battlefield import Token
from rules.core import CasualtyPayload, Event
from tests.bot.test_battlefield_render import TERRAIN, crossroads_view, picture

OLD = "**Old**_Bill <@1> ~~x~~ `c` |s| #h [l](u) \\"


def test_shown_escapes_every_markdown_character_and_keeps_line_breaks() -> None:
    assert shown(OLD) == r"\*\*Old\*\*\_Bill \<@1\> \~\~x\~\~ \`c\` \|s\| \#h \[l\](u) \\"
    assert shown("Rossi moves.\nBig Jim waits.") == "Rossi moves.\nBig Jim waits."
    assert shown("- Bob\n1. Al\n  + Cy") == "\\- Bob\n1\\. Al\n  \\+ Cy"
    assert shown("O'Brien, Jean-Luc and Sgt. Harper") == "O'Brien, Jean-Luc and Sgt. Harper"


@given(st.text(max_size=60))
def test_the_terminal_shows_what_was_escaped_as_it_was_written(text: str) -> None:
    assert plain(shown(text)) == printable(text)


def test_the_terminal_writes_control_and_direction_characters_by_their_code() -> None:
    assert printable("Ro\x1b[31mssi\u202e") == "Ro<U+001B>[31mssi<U+202E>"
    assert plain("**Rossi** ~~Cy~~ \\*\\*Old\\*\\*") == "Rossi Cy [out] **Old**"


def test_event_texts_dice_reasons_and_casualties_show_an_old_name_escaped() -> None:
    events = [
        Event("move", f"{OLD} moves 3″."),
        CasualtyPayload(OLD, "red", "Big Jim").event(f"{OLD} is down."),
    ]
    rolled = RolledDie("die", 6, 4, f"{OLD}: shot")
    main, fallen = action_cards("/ssg move figure:x", "Rita", "red", events, [rolled])
    assert main.description.startswith(shown(OLD) + " moves")
    assert main.fields[0][1] == f"🎲 d6 → **4** — {shown(OLD)}: shot" == roll_line(rolled)
    assert fallen == casualty_card(events[1])
    assert fallen.title == f"☠ Casualty: {shown(OLD)}"
    assert f"{OLD} moves 3″." in card_text(main)


def test_a_card_with_a_terminal_escape_in_a_name_cannot_steer_the_terminal() -> None:
    card = Card(title=shown("Ro\x1b[2Jssi"), description=shown("Ro\x1b[2Jssi falls."))
    assert "\x1b" not in card_text(card)


NAMES = [
    "Дмитрий",
    "李小龙",
    "محمد",
    "Ἀχιλλεύς",
    "שלמה",
    "नरेन्द्र",
    "👨\u200d👩\u200d👧",
    "Zalgo" + "\u0301" * 40,
    "Big\nJim",
    "Ro\x1bssi\u200b\u202e",
    "x" * 200,
]


@pytest.mark.parametrize("name", NAMES, ids=[repr(n[:12]) for n in NAMES])
def test_a_picture_draws_a_name_in_any_script_without_a_crash(name: str) -> None:
    view = crossroads_view(
        (Token(name, "red", 6.0, 6.0, 0.5), Token("Bo", "blue", 30.0, 30.0, 0.5)), title=name, notes=(name,)
    )
    assert draw_field(view, TERRAIN).startswith(b"\x89PNG")
    label = figure_labels(view)[name]
    assert label.isprintable() and "\u200b" not in label


def test_a_free_roll_keeps_its_markdown_and_a_rules_event_is_escaped() -> None:
    assert shown_event(Event("roll", "Gina rolls 2d6 (3, 4) = `7`")) == "Gina rolls 2d6 (3, 4) = `7`"
    assert shown_event(Event("move", "**Old** moves.")) == r"\*\*Old\*\* moves."


ACCENTED = ("René", "Ἀχιλλεύς", "Дмитрий")


@pytest.mark.parametrize("name", ACCENTED)
def test_an_accented_greek_or_cyrillic_name_is_drawn_letter_for_letter(name: str) -> None:
    """Each letter is drawn with its own glyph (not the font's empty box, not nothing), and the
    picture's label and title are the name as written, its ink as wide as the font draws it."""
    assert all(drawable(ch) and glyph_pixels(ch) != glyph_pixels(" ") for ch in name)
    view = crossroads_view((Token(name, "red", 6.0, 6.0, 0.5), Token("Bo", "blue", 30.0, 30.0, 0.5)), title=name)
    assert figure_labels(view)[name] == name
    strip = np.asarray(picture(view).convert("L"))[4:52] < 128
    columns = np.flatnonzero(strip.any(axis=0))
    assert abs((columns[-1] - columns[0]) - font(30).getlength(name)) < 8


def test_a_letter_the_font_lacks_is_written_as_a_question_mark_not_a_box() -> None:
    assert drawn_plain("李") == "?"
    assert drawn_plain("Rene\u0301") == "René"
