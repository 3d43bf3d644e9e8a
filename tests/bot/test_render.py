"""Cards drawn as embeds always fit Discord's limits; as text they keep everything readable."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from bot.app.replies import Card
from bot.dice import RolledDie
from bot.render.cards import action_cards, board_card
from bot.render.embeds import to_embeds
from bot.render.text import cards_text
from rules.core import Board, Event, FigureLine

text = st.text(max_size=5000)
cards = st.builds(
    Card,
    title=st.text(min_size=1, max_size=400),
    description=text,
    fields=st.lists(st.tuples(st.text(min_size=1, max_size=300), st.text(min_size=1, max_size=2000), st.booleans()), max_size=30),
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
    events = [Event("shot", "Rossi fires at Bo: 6 = 6, needs 5: hit."),
              Event("casualty", "Bo is removed.", {"figure": "Bo", "side": "blue", "by": "Rossi"})]
    rolled = [RolledDie("die", 6, "6", "Rossi: shot 1 of 1 at Bo")]
    made = action_cards("Red · shoot", "Rita", "red", events, rolled)
    assert made[0].fields == [("Dice", "🎲 d6 → **6** — Rossi: shot 1 of 1 at Bo", False)]
    assert made[1].title == "☠ Casualty: Bo"
    text = cards_text(made)
    assert "d6 → 6 — Rossi: shot 1 of 1 at Bo" in text and "**" not in text


def test_board_card_groups_figures_by_side() -> None:
    board = Board("Turn 1 · red · movement phase", (("Active", "red"),),
                  (FigureLine("Rossi", "red", "rifle"), FigureLine("Bo", "blue", "removed", out=True)))
    card = board_card("Table", board)
    assert ("Red", "Rossi — rifle", False) in card.fields and ("Blue", "~~Bo~~ — removed", False) in card.fields
    assert "Bo [out]" in cards_text([card])


def sample_grid():
    from rules.core import Grid, GridPiece, GridSquare

    return Grid(
        width=6, height=4,
        squares=(GridSquare(1, 1, "hill", uphill=("s",)), GridSquare(2, 1, "open", {"n": "hedge"}), GridSquare(4, 2, "building")),
        pieces=(GridPiece(0, 0, "Able", "Ab", "red", "e"), GridPiece(5, 3, "Baker", "Bk", "blue", "w", ("pinned",), 2)),
    )


def test_grid_text_shows_coordinates_terrain_and_figures() -> None:
    from bot.render.grid_text import column_name, grid_text

    text = grid_text(sample_grid())
    lines = text.splitlines()
    assert lines[0].split() == ["A", "B", "C", "D", "E", "F"]
    assert lines[1].split()[:2] == ["1", "Ab"] and "Bk!" in lines[4]
    assert "Bk = Baker (blue, facing W, pinned, 2 wound)" in text
    assert [column_name(n) for n in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]


def test_grid_picture_is_a_png_of_the_board() -> None:
    import io

    from PIL import Image

    from bot.render.grid_image import CELL, MARGIN, grid_png

    data = grid_png(sample_grid())
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (MARGIN + 6 * CELL + 2, MARGIN + 4 * CELL + 2)
    centre = (MARGIN + CELL // 2 - 10, MARGIN + CELL // 2)
    assert image.getpixel(centre)[0] > 200  # red's figure stands on A1
