"""The battlefield drawn as a PNG (Discord) and as text (the terminal): the table at about 1,200
pixels wide, every figure in its side's colour where it stands, a focus's sight shaded as
line_of_sight measures it, crowded names moved to a key, every shipped map drawn."""

from __future__ import annotations

import io
import math
import re
from dataclasses import replace

import numpy as np
import pytest
from PIL import Image
from shapely.geometry import Polygon

from bench.pictures import busy_map
from bot.render.battlefield import (
    JOIN,
    WIDTH,
    _overlaps,
    _Painter,
    contact_groups,
    draw_field,
    figure_labels,
    side_colours,
    where_drawn,
)
from bot.render.field_text import field_text, nearest_pairs
from rules import RULESETS, get_engine
from rules.battlefield import Band, FieldState, FieldView, Focus, Token, UnitMark, deploy, line_of_sight
from rules.battlefield.formations import DEFAULT_SPEC, UnitPlacement, figure_points, footprint
from rules.battlefield.sightlines import BLOCKED, CLEAR, PARTIAL, sight_grid
from rules.geometry import Base, Point
from rules.ssg.engine import make_engine
from rules.words import heading

ENGINE = make_engine()
TERRAIN = ENGINE.terrain()
RED, BLUE = side_colours(("red", "blue")).values()
WHITE_RGB = (255, 255, 255)


def crossroads_view(
    tokens: tuple[Token, ...], focus: Focus | None = None, title: str = "", notes: tuple[str, ...] = ()
) -> FieldView:
    field = FieldState(ENGINE.scenario("crossroads"), {t.name: [t.x, t.y] for t in tokens})
    return FieldView(field, ("red", "blue"), tokens, focus, title, notes)


MID_GAME = (
    Token("Rossi", "red", 25.5, 18.0, 0.5, 90, ("wounded",)),
    Token("Big Jim", "red", 14.0, 3.0, 0.5, 45),
    Token("Sarge", "red", 20.5, 13.0, 0.5, None, ("pinned",)),
    Token("Doc", "red", 8.0, 2.0, 0.5, None, ("out",)),
    Token("Hans", "blue", 20.0, 31.0, 0.5, 270),
    Token("Fritz", "blue", 31.0, 21.0, 0.5, 200, ("down", "no ammo")),
    Token("Otto", "blue", 15.0, 24.0, 0.5, 250),
)


def picture(view: FieldView) -> Image.Image:
    image = Image.open(io.BytesIO(draw_field(view, TERRAIN)))
    assert image.format == "PNG"
    return image.convert("RGB")


def pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    value = image.getpixel(xy)
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def near(a: tuple[int, int, int], b: tuple[int, int, int], slack: int = 30) -> bool:
    return all(abs(p - q) <= slack for p, q in zip(a, b, strict=True))


# --- the picture ----------------------------------------------------------------------------------


def test_the_picture_is_a_png_about_1200_pixels_wide_with_every_figure_where_it_stands() -> None:
    view = crossroads_view(MID_GAME, title="Crossroads, turn 3", notes=("Red moves.",))
    image = picture(view)
    width, height = image.size
    assert width == WIDTH == 1200 and 1200 < height < 1800
    for token in MID_GAME:
        if "out" in token.marks:
            continue
        # On the disc, clear of its number, of the badges (at 45°, 135° …) and of the facing wedge.
        facing = token.facing if token.facing is not None else 0.0
        back = math.radians(max((0, 90, 180, 270), key=lambda a: abs(((a - facing + 180) % 360) - 180)))
        x, y = where_drawn(view, token.x + 0.35 * math.cos(back), token.y + 0.35 * math.sin(back))
        assert near(pixel(image, (x, y)), RED if token.side == "red" else BLUE), token.name
    fallen = where_drawn(view, 8.0 - 0.15, 2.0 + 0.3)
    assert not near(pixel(image, fallen), RED) and near(pixel(image, fallen), RED, 140)  # faded
    open_ground = where_drawn(view, 33.5, 1.5)
    assert not near(pixel(image, open_ground), RED) and not near(pixel(image, open_ground), BLUE)


def test_terrain_and_zones_are_drawn_in_their_colours() -> None:
    view = crossroads_view(())
    image = picture(view)
    roof = pixel(image, where_drawn(view, 23.0, 26.5))
    assert near(roof, (184, 108, 82), 20)  # the farmhouse's roof
    pond = pixel(image, where_drawn(view, 8.0, 29.5))
    assert pond[2] > pond[0] + 40  # blue water
    red_zone = pixel(image, where_drawn(view, 13.5, 1.5))
    blue_zone = pixel(image, where_drawn(view, 13.5, 35.5))
    paper = pixel(image, where_drawn(view, 3.5, 1.5))
    assert red_zone[0] - red_zone[2] > paper[0] - paper[2] + 20  # each zone tinted its side's way
    assert blue_zone[2] - blue_zone[0] > paper[2] - paper[0] + 20


def test_a_focus_shades_what_it_cannot_see_behind_the_farmhouse() -> None:
    focus = Focus("Rossi", 4.0, (Band("short", 12), Band("long", 24)))
    plain = picture(crossroads_view(MID_GAME))
    focused_view = crossroads_view(MID_GAME, focus)
    focused = picture(focused_view)
    behind = where_drawn(focused_view, 25.5, 29.0)  # north of the farmhouse, Rossi south of it
    assert sum(pixel(focused, behind)) < sum(pixel(plain, behind)) - 90
    seen = where_drawn(focused_view, 9.5, 18.5)  # down the lane: clear, outside the reach, off the bands
    assert pixel(focused, seen) == pixel(plain, seen)
    reach = where_drawn(focused_view, 27.5, 16.0)  # 2.8" away: inside its 4" of movement
    assert pixel(focused, reach) != pixel(plain, reach)


@pytest.mark.parametrize(
    ("scenario", "at"),
    [
        ("crossroads", (25.5, 18.0)),  # on the lane south of the farmhouse
        ("crossroads", (8.0, 8.0)),  # in the copse, within its edge
        ("crossroads", (9.0, 9.0)),  # deep in the copse: sees nothing
        ("crossroads", (21.0, 25.0)),  # standing in the yard wall
        ("farm", (29.0, 33.0)),  # on the knoll
        ("busy", (16.2, 2.0)),  # thirty features of every kind
        ("busy", (33.0, 21.5)),  # standing in a hedge
        ("busy", (24.0, 14.5)),  # standing in a barricade
    ],
)
def test_the_shaded_sight_is_what_line_of_sight_says_at_every_point(scenario: str, at: tuple[float, float]) -> None:
    map_ = busy_map() if scenario == "busy" else ENGINE.scenario(scenario)
    view = FieldView(FieldState(map_), ("red", "blue"))
    viewer = Base(Point(*at), 0.5)
    xs, ys, sight = sight_grid(view.field, TERRAIN, viewer, 1.5)
    codes = {"clear": CLEAR, "partial": PARTIAL, "blocked": BLOCKED}
    expected = np.array(
        [
            [codes[line_of_sight(view.field, TERRAIN, viewer, Base(Point(float(x), float(y)), 0.5)).kind] for x in xs]
            for y in ys
        ]
    )
    assert sight.shape == (len(ys), len(xs)) == (24, 24)
    assert (sight == expected).all()
    assert ys[0] > ys[-1]  # rows from the top of the table, as drawn


def test_crowded_figures_are_numbered_with_a_key_and_spread_ones_named() -> None:
    spread = crossroads_view(MID_GAME)
    assert figure_labels(spread) == {t.name: t.name for t in MID_GAME}
    huddle = tuple(
        Token(f"Grenadier {n}", "red" if n % 2 else "blue", 10 + (n % 4) * 1.1, 10 + (n // 4) * 1.1, 0.5)
        for n in range(12)
    )
    labels = figure_labels(crossroads_view(huddle))
    numbered = sorted(int(text) for text in labels.values() if text.isdigit())
    assert numbered == list(range(1, len(numbered) + 1)) and len(numbered) >= 4
    assert all(labels[t.name] == t.name or labels[t.name].isdigit() for t in huddle)
    keyed_height = picture(crossroads_view(huddle)).size[1]
    named = tuple(Token(f"G{n}", t.side, t.x * 2 - 10, t.y * 2 - 10, 0.5) for n, t in enumerate(huddle))
    assert keyed_height > picture(crossroads_view(named)).size[1]  # the key takes its own line


def test_names_are_drawn_as_written_and_letters_the_font_lacks_plainly() -> None:
    view = crossroads_view((Token("René Ørsted—2", "red", 6.0, 6.0, 0.5), Token("李 Wei", "blue", 30.0, 30.0, 0.5)))
    assert figure_labels(view) == {"René Ørsted—2": "René Ørsted—2", "李 Wei": "? Wei"}


def test_a_figure_off_every_side_and_more_than_two_sides_are_drawn() -> None:
    tokens = (
        Token("A", "red", 2, 2, 0.5),
        Token("B", "blue", 34, 34, 0.5),
        Token("C", "green", 18, 18, 0.5, 0.0),
        Token("D", "yellow", 18, 10, 0.5, 180.0),
    )
    view = crossroads_view(tokens)
    colours = side_colours(("red", "blue", "green", "yellow"))
    assert len(set(colours.values())) == 4
    image = picture(FieldView(view.field, ("red", "blue", "green", "yellow"), tokens))
    assert near(pixel(image, where_drawn(view, 17.8, 17.8)), colours["green"])


@pytest.mark.parametrize(
    ("slug", "scenario"),
    [(slug, name) for slug in RULESETS if get_engine(slug).plays_on_map for name in get_engine(slug).scenarios()],
)
def test_every_shipped_map_is_drawn_with_its_sides_deployed(slug: str, scenario: str) -> None:
    engine = get_engine(slug)
    terrain = engine.terrain()
    field = FieldState(engine.scenario(scenario))
    sides = tuple(engine.sides())
    radii = {f"{side} {n}": 0.5 for side in sides for n in range(6)}
    for side in sides:
        deploy(field, terrain, side, [f"{side} {n}" for n in range(6)], radii)
    tokens = tuple(Token(name, name.rsplit(" ", 1)[0], x, y, 0.5) for name, (x, y) in field.positions.items())
    view = FieldView(field, sides, tokens, Focus(tokens[0].name, 4.0, (Band("long", 24),)))
    image = Image.open(io.BytesIO(draw_field(view, terrain)))
    assert image.format == "PNG" and image.size[0] == WIDTH
    on_disc = where_drawn(view, tokens[0].x + 0.25, tokens[0].y + 0.25)
    assert near(pixel(image.convert("RGB"), on_disc), side_colours(sides)[sides[0]])


# --- the text ------------------------------------------------------------------------------------


def test_the_text_names_every_figure_where_it_stands_and_measures_the_nearest_enemies() -> None:
    view = crossroads_view(MID_GAME, Focus("Rossi", 4.0, (Band("short", 12), Band("long", 24))))
    text = field_text(view, TERRAIN)
    for token in MID_GAME:
        assert re.search(rf"\b{token.side}\s+{token.name}\s+{token.x:.1f},{token.y:.1f}", text), token.name
    assert "Rossi: 4.0″ of movement left; short 12.0″, long 24.0″" in text
    first = next(line for line in text.splitlines() if line.startswith("  Rossi") and " - " in line)
    assert re.search(r"\d+\.\d″", first)
    assert "Doc" not in text.split("Nearest enemies")[1]  # out of the fight
    assert "wounded" in text and "facing north (90°)" in text
    assert "  the north hedge (hedge): 3.0,21.0 to 15.0,21.0, 0.75″ thick" in text
    assert "  the farmhouse (building): corners 22.0,22.0 29.0,22.0 29.0,28.0 22.0,28.0; door at 25.5,22.0" in text


def test_the_pairs_are_the_nearest_enemies_each_once_the_focus_first() -> None:
    view = crossroads_view(MID_GAME, Focus("Sarge", 4.0))
    pairs = nearest_pairs(view, 12)
    names = [(a.name, b.name) for a, b in pairs]
    assert len(names) == len(set(names))
    assert all(a.side != b.side for a, b in pairs)
    assert [a for a, _ in names[:3]] == ["Sarge"] * 3  # the focus with every enemy, nearest first
    assert nearest_pairs(view, 2) == pairs[:2]
    lines = field_text(view, TERRAIN, pairs=2).splitlines()
    assert sum(" - " in line for line in lines) == 2


def test_the_text_of_an_empty_map() -> None:
    text = field_text(crossroads_view(()), TERRAIN)
    assert "Crossroads (36 x 36 inch table)" in text and "No figure is on the map yet." in text


def test_units_are_drawn_as_blocks_of_their_figures() -> None:
    """NSR's basic units: the footprint tinted in the side's colour, a dot at each figure."""
    placement = UnitPlacement(Point(10, 9), 90, "line", 12)
    outline = tuple((x, y) for x, y in list(footprint(placement, DEFAULT_SPEC).exterior.coords)[:-1])
    figures = tuple((p.x, p.y) for p in figure_points(placement, DEFAULT_SPEC))
    unit = UnitMark("33rd Foot", "red", outline, figures, 12, "line", 90, ("wounded",))
    view = FieldView(FieldState(ENGINE.scenario("crossroads")), ("red", "blue"), units=(unit,), zones=False)
    image = picture(view)
    x, y = figures[0]
    assert near(pixel(image, where_drawn(view, x, y)), RED)
    between = where_drawn(view, (figures[0][0] + figures[1][0]) / 2, figures[0][1])
    assert not near(pixel(image, between), RED) and pixel(image, between) != pixel(image, where_drawn(view, 33.5, 1.5))
    assert len(figures) == 12 and len(outline) == 4


def test_a_units_solid_dots_are_the_figures_its_label_counts() -> None:
    """Four figures stand with the unit, one of them wounded: its label says 3, three dots are
    solid in its colour and the fourth is hollow, which the legend explains."""
    placement = UnitPlacement(Point(10, 9), 90, "line", 4)
    outline = tuple((x, y) for x, y in list(footprint(placement, DEFAULT_SPEC).exterior.coords)[:-1])
    figures = tuple((p.x, p.y) for p in figure_points(placement, DEFAULT_SPEC))
    unit = UnitMark("Rifles", "red", outline, figures, 3, "line", 90)
    view = FieldView(FieldState(ENGINE.scenario("crossroads")), ("red", "blue"), units=(unit,), zones=False)
    image = picture(view)
    solid = [near(pixel(image, where_drawn(view, x, y)), RED) for x, y in figures]
    assert solid == [True, True, True, False]
    assert near(pixel(image, where_drawn(view, *figures[3])), WHITE_RGB, 20)


def test_the_text_lists_each_unit_where_it_stands_and_its_nearest_enemy_unit() -> None:
    """The terminal's text of an NSR field: no "No figure is on the map yet." while units stand on it."""

    def mark(name: str, side: str, centre: Point, facing: float, strength: int) -> UnitMark:
        placement = UnitPlacement(centre, facing, "line", strength)
        outline = tuple((x, y) for x, y in list(footprint(placement, DEFAULT_SPEC).exterior.coords)[:-1])
        figures = tuple((p.x, p.y) for p in figure_points(placement, DEFAULT_SPEC))
        return UnitMark(name, side, outline, figures, strength, "line", facing)

    ligne, foot = mark("1er Ligne", "red", Point(10, 9), 90, 12), mark("33rd Foot", "blue", Point(10, 20), 270, 12)
    gap = Polygon(ligne.outline).distance(Polygon(foot.outline))
    view = FieldView(FieldState(ENGINE.scenario("crossroads")), ("red", "blue"), units=(ligne, foot), zones=False)
    text = field_text(view, TERRAIN)
    assert "No figure is on the map yet." not in text
    assert re.search(r"red\s+1er Ligne\s+10\.0,9\.0\s+line, facing north \(90°\), 12 figures", text), text
    assert re.search(r"blue\s+33rd Foot\s+10\.0,20\.0\s+line, facing south \(270°\), 12 figures", text), text
    assert re.search(rf"1er Ligne\s+-\s+33rd Foot\s+{gap:.1f}″", text), text


@pytest.mark.parametrize(
    ("degrees", "said"),
    [
        (0.0, "east (0°)"),
        (0.9436, "east (1°)"),
        (357.138, "east (357°)"),
        (22.4, "east (22°)"),
        (22.6, "north-east (23°)"),
        (179.03, "west (179°)"),
        (315.0, "south-east (315°)"),
        (359.6, "east (0°)"),
    ],
)
def test_a_facing_reads_as_a_compass_point_and_whole_degrees(degrees: float, said: str) -> None:
    assert heading(degrees) == said


def test_a_terrain_name_makes_way_for_a_figure_and_its_label() -> None:
    """A figure standing where the copse's and the pond's names would go, and a unit's label
    where the ploughed field's would: each name moves off them."""
    placement = UnitPlacement(Point(28, 9.5), 270, "line", 4)
    outline = tuple((x, y) for x, y in list(footprint(placement, DEFAULT_SPEC).exterior.coords)[:-1])
    figures = tuple((p.x, p.y) for p in figure_points(placement, DEFAULT_SPEC))
    unit = UnitMark("Rifles", "blue", outline, figures, 4, "line", 270)
    tokens = (Token("Rossi", "red", 8.4, 8.9, 0.5), Token("Bartholomew", "red", 8.4, 28.5, 0.5))
    view = replace(crossroads_view(tokens), units=(unit,))
    painter = _Painter(view, TERRAIN)
    _, labels, _ = painter.canvas()
    figures_drawn = painter._taken(labels)
    assert len(painter.names) == 9
    for name in painter.names:
        assert not any(_overlaps(name, box) for box in figures_drawn), name


def test_a_melee_is_magnified_below_the_map_with_its_pairs_joined() -> None:
    """Three figures piled up in contact (and two far apart): one place, its two pairs joined,
    magnified in an inset under the map where each disc is several times larger."""
    pile = (
        Token("Hugh", "red", 18.0, 18.0, 0.5, 0, ("wounded",)),
        Token("Olaf", "blue", 18.9, 18.2, 0.5, 180, ("down",)),
        Token("Sven", "blue", 17.6, 18.9, 0.5, 270),
        Token("Walt", "red", 5.0, 5.0, 0.5),
        Token("Bjorn", "blue", 30.0, 30.0, 0.5),
    )
    view = replace(crossroads_view(pile), contacts=(("Hugh", "Sven"),))
    assert contact_groups(view) == [[("Hugh", "Sven"), ("Hugh", "Olaf")]]
    apart = crossroads_view(tuple(replace(t, x=t.x + 4 * n) for n, t in enumerate(pile)))
    assert contact_groups(apart) == []
    image, plain = picture(view), picture(apart)
    assert image.size[1] > plain.size[1] + 200
    _, map_bottom = where_drawn(view, 0, 0)
    inset = np.asarray(image.crop((0, map_bottom + 60, WIDTH, map_bottom + 60 + 300)))

    def count(colour: tuple[int, int, int]) -> int:
        return int((np.abs(inset.astype(int) - colour).max(axis=2) <= 30).sum())

    disc = math.pi * (0.5 * (where_drawn(view, 1, 0)[0] - where_drawn(view, 0, 0)[0])) ** 2
    assert count(RED) > 4 * disc and count(BLUE) > 8 * disc and count(JOIN) > 100
