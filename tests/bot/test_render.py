"""Cards drawn as embeds always fit Discord's limits; as text they keep everything readable."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.adapter.embeds import to_embeds
from bot.app.replies import Card
from bot.dice import RolledDie
from bot.render.cards import action_cards, board_card, cards_text
from rules.core import Board, CasualtyPayload, Event, FigureLine, VictoryPayload, WoundPayload

text = st.text(max_size=5000)
cards = st.builds(
    Card,
    title=st.text(min_size=1, max_size=400),
    description=text,
    fields=st.lists(
        st.tuples(st.text(min_size=1, max_size=300), st.text(min_size=1, max_size=2000), st.booleans()), max_size=30
    ),
    footer=st.none() | st.text(max_size=3000),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(cards, min_size=1, max_size=14))
def test_embeds_fit_discord_whatever_the_cards(cards_: list[Card]) -> None:
    embeds = to_embeds(cards_)
    assert 1 <= len(embeds) <= 10
    assert sum(len(e) for e in embeds) <= 6000
    for e in embeds:
        assert len(e.title or "") <= 256 and len(e.description or "") <= 4096
        assert len(e.fields) <= 25
        assert all(len(f.name) <= 256 and len(f.value) <= 1024 and f.value for f in e.fields)
        assert len(e.footer.text or "") <= 2048 if e.footer else True


def test_dice_card_lists_every_die_and_a_casualty_card_follows() -> None:
    events = [
        Event("shot", "Rossi fires at Bo: 6 = 6, needs 5: hit."),
        CasualtyPayload("Bo", "blue", "Rossi").event("Bo is removed."),
    ]
    rolled = [RolledDie("die", 6, "6", "Rossi: shot 1 of 1 at Bo")]
    made = action_cards("Red · shoot", "Rita", "red", events, rolled)
    assert made[0].fields == [("Dice", "🎲 d6 → **6** — Rossi: shot 1 of 1 at Bo", False)]
    assert made[1].title == "☠ Casualty: Bo" and made[1].description == "Bo (blue) is out of the fight, by Rossi."
    text = cards_text(made)
    assert "d6 → 6 — Rossi: shot 1 of 1 at Bo" in text and "**" not in text


def test_a_stored_casualty_read_back_as_plain_data_draws_the_same_card() -> None:
    fresh = CasualtyPayload("Bo", "blue", "Rossi").event("Bo is removed.", weapon="rifle")
    stored = Event(fresh.kind, fresh.text, json.loads(json.dumps(dict(fresh.data))))
    assert action_cards("t", "Rita", "red", [stored], [])[1:] == action_cards("t", "Rita", "red", [fresh], [])[1:]


def test_a_victory_card_names_the_winner() -> None:
    [_, card] = action_cards("t", "Rita", "red", [VictoryPayload("red", "blue").event("Red wins.")], [])
    assert card.title == "🏆 Red wins!" and card.description == "Red wins."


def test_board_card_groups_figures_by_side() -> None:
    board = Board(
        "Turn 1 · red · movement phase",
        (("Active", "red"),),
        (FigureLine("Rossi", "red", "rifle"), FigureLine("Bo", "blue", "removed", out=True)),
    )
    card = board_card("Table", board)
    assert ("Red", "Rossi — rifle", False) in card.fields and ("Blue", "~~Bo~~ — removed", False) in card.fields
    assert "Bo [out]" in cards_text([card])


# The grid board's text and picture are tested in tests/bot/test_grid_render.py.


def test_a_wound_event_gets_its_own_card_with_what_now_applies() -> None:
    wound = WoundPayload(
        "Walt", "blue", "Bjorn", heading="Serious wound", effects=("half speed", "Bravery test each turn")
    )
    made = action_cards("Red · fight", "Rita", "red", [wound.event("Bjorn's sword hits Walt: serious wound.")], [])
    assert made[1].title == "🩸 Wound: Walt — Serious wound"
    assert made[1].fields == [("Now in force", "half speed\nBravery test each turn", False)]


def test_a_wound_without_a_heading_or_effects_shows_its_text() -> None:
    made = action_cards("t", "Rita", "red", [WoundPayload("Leroux").event("Leroux is already out.")], [])
    assert (made[1].title, made[1].description, made[1].fields) == ("🩸 Wound: Leroux", "Leroux is already out.", [])
