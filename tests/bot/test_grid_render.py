"""A grid board drawn as text (the terminal) and as a PNG (Discord): coordinates, terrain, hedges
and walls between squares, and every figure with its side's colour, facing, label, pips and marks."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from bot.render.cards import BOARD_PICTURE, board_card, board_files
from bot.render.grid_image import CELL, MARGIN, MAX_SIDE, PINNED, TITLE_ROW, _fitted, grid_png, side_colours
from bot.render.grid_text import grid_text
from rules.core import Board, Grid, GridPiece, GridSquare
from rules.words import column_name


def sample_grid() -> Grid:
    return Grid(
        width=6,
        height=4,
        squares=(
            GridSquare(1, 1, "hill", uphill=("s",)),
            GridSquare(2, 1, "open", {"n": "hedge"}),
            GridSquare(4, 2, "building"),
            GridSquare(3, 3, "open", {"w": "wall"}),
        ),
        pieces=(GridPiece(0, 0, "Able", "Ab", "red", "e"), GridPiece(5, 3, "Baker", "Bk", "blue", "w", ("pinned",), 2)),
    )


def pixel(image: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    return image.getpixel((int(x), int(y)))[:3]


def near(a: tuple[int, int, int], b: tuple[int, int, int], slack: int = 40) -> bool:
    return all(abs(p - q) <= slack for p, q in zip(a, b, strict=True))


# --- text ---------------------------------------------------------------------------------------


def test_grid_text_shows_coordinates_terrain_and_figures() -> None:
    text = grid_text(sample_grid())
    lines = text.splitlines()
    assert lines[0].split() == ["A", "B", "C", "D", "E", "F"]
    assert lines[1].split()[:2] == ["1", "Ab>"]
    assert "^ ^" in lines[3] and "[###]" in next(line for line in lines if line.startswith("  3"))
    assert "bk<!" in next(line for line in lines if line.startswith("  4"))  # the second side in small letters
    assert "bk = Baker (blue, F4, facing W, pinned, 2 wound points)" in text
    assert "Ab = Able (red, A1, facing E)" in text
    assert "Capitals: red; small letters: blue." in text
    assert [column_name(n) for n in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]


def test_hedges_and_walls_stand_between_squares() -> None:
    lines = grid_text(sample_grid()).splitlines()
    # the hedge on the north side of C2 is its own line, under column C only
    hedge = lines[2]
    assert hedge.strip() == "%%%%%" and hedge.index("%") == 4 + 2 * 6 + 1
    # the wall on the west side of D4 sits in the gap before column D
    row4 = next(line for line in lines if line.startswith("  4"))
    assert row4[4 + 3 * 6] == "#"
    assert "Key: ^ hill · [###] building · % hedge · # wall" in lines


def test_marks_in_a_cell() -> None:
    grid = Grid(
        4,
        2,
        pieces=(
            GridPiece(0, 0, "Lying", "C1", "red", "s", ("fallen",)),
            GridPiece(1, 0, "Boss", "A2", "red", "n", ("leader",)),
            GridPiece(2, 0, "Odd", "X", "green", None),
        ),
    )
    row = grid_text(grid).splitlines()[1]
    assert "C1v_" in row and "A2^*" in row and " x " in row  # green, the second side, in small letters


def test_unknown_terrain_shows_its_initial() -> None:
    text = grid_text(Grid(3, 1, squares=(GridSquare(1, 0, "marsh"),)))
    assert " m m " in text.splitlines()[1] and "m marsh" in text


# --- the picture ----------------------------------------------------------------------------------


def test_grid_picture_is_a_png_of_the_board() -> None:
    image = Image.open(io.BytesIO(grid_png(sample_grid())))
    assert image.format == "PNG"
    width, height = image.size
    assert width == 2 * MARGIN + 6 * CELL and height > 2 * MARGIN + 4 * CELL  # a key below the board
    red_disc = (MARGIN + CELL // 2 - 8, MARGIN + CELL // 2 - 6)
    assert near(pixel(image, *red_disc), (0xE7, 0x4C, 0x3C))  # red's figure stands on A1
    blue_disc = (MARGIN + 5 * CELL + CELL // 2 + 8, MARGIN + 3 * CELL + CELL // 2 - 8)
    assert near(pixel(image, *blue_disc), (0x34, 0x98, 0xDB))  # blue's on F4


def test_terrain_edges_and_marks_are_drawn() -> None:
    image = Image.open(io.BytesIO(grid_png(sample_grid())))
    roof = (MARGIN + 4 * CELL + 10, MARGIN + 2 * CELL + 10)
    assert near(pixel(image, *roof), (160, 82, 60))  # the building on E3
    hedge = (MARGIN + 2 * CELL + CELL // 2, MARGIN + CELL)
    assert near(pixel(image, *hedge), (46, 110, 40))  # the hedge on C2's north side
    wall = (MARGIN + 3 * CELL, MARGIN + 3 * CELL + CELL // 2 + 3)
    assert near(pixel(image, *wall), (110, 106, 100), 60)  # the wall on D4's west side
    hill = (MARGIN + CELL + CELL // 2, MARGIN + 2 * CELL - 4)
    assert near(pixel(image, *hill), (140, 100, 50))  # a hachure on B2's uphill side
    centre = (MARGIN + 5 * CELL + CELL // 2, MARGIN + 3 * CELL + CELL // 2 - 2)
    ring = (centre[0], centre[1] - (CELL / 2 - 9) - 2)
    assert near(pixel(image, *ring), PINNED)  # Baker is pinned
    pip = (MARGIN + 5 * CELL + 5, MARGIN + 3 * CELL + 17)
    assert near(pixel(image, *pip), (200, 20, 20))  # with wound pips


def test_sides_with_the_same_colour_are_told_apart() -> None:
    colours = side_colours(["prussians", "austrians", "red"])
    assert len(set(colours.values())) == 3


def test_a_huge_board_is_cut_to_size_and_an_empty_one_has_no_key() -> None:
    image = Image.open(io.BytesIO(grid_png(Grid(200, 3))))
    assert image.size == (2 * MARGIN + MAX_SIDE * CELL, 2 * MARGIN + 3 * CELL)


def test_a_board_with_a_grid_becomes_a_card_with_its_picture() -> None:
    board = Board("Turn 1", (("Active", "red"),), (), grid=sample_grid())
    card = board_card("Table", board)
    assert card.image == BOARD_PICTURE and card.text_extra and "Ab>" in card.text_extra
    [(name, data)] = board_files(board)
    assert name == BOARD_PICTURE and data.startswith(b"\x89PNG")


def test_a_board_has_its_title_and_every_figure_its_name() -> None:
    """The title above the board; each name under its disc (cut to the square, whole in the key);
    the label on the disc and its class letter below it."""
    plain = Image.open(io.BytesIO(grid_png(sample_grid())))
    titled = Image.open(io.BytesIO(grid_png(replace(sample_grid(), title="Turn 2 · fire phase · red"))))
    assert titled.size[1] == plain.size[1] + TITLE_ROW
    row = titled.convert("L").crop((0, 0, titled.size[0], TITLE_ROW))
    assert row.getextrema()[0] < 100  # ink in the title row
    named = replace(sample_grid(), pieces=(replace(sample_grid().pieces[0], name="Wolfgang Amadeus"),))
    strip = (0, CELL - 14, CELL, CELL - 2)

    def name_strip(grid: Grid) -> bytes:
        image = Image.open(io.BytesIO(grid_png(grid))).convert("L")
        return image.crop((MARGIN + strip[0], MARGIN + strip[1], MARGIN + strip[2], MARGIN + strip[3])).tobytes()

    assert name_strip(named) != name_strip(sample_grid()) != name_strip(replace(sample_grid(), pieces=()))
    assert _fitted("Wolfgang Amadeus", CELL - 2).endswith("…") and _fitted("Bo", CELL - 2) == "Bo"
