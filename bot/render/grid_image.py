"""A grid board as a PNG: coordinates round the edge, terrain drawn as on a map (hills with
hachures on their uphill sides, crops, woods, rubble, buildings), hedges and walls on the sides of
squares, and every figure as a disc in its side's colour with a facing nose, its label (the class
letter large), wound pips, and marks for a leader, pinned, fallen and an empty weapon; a key
below with each side, mark, terrain and edge shown, and every figure's label with its name."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.fonts import font as _font
from bot.render.fonts import plain as _plain
from bot.render.shown import side_colour
from rules.core import Grid, GridPiece, GridSquare
from rules.words import column_name

CELL = 48
MARGIN = 28
KEY_LINE = 22
TITLE_ROW = 34
MAX_SIDE = 60
Colour = tuple[int, int, int]

PAPER: Colour = (236, 232, 214)
GRID_LINE: Colour = (176, 170, 150)
INK: Colour = (40, 36, 30)
TERRAIN_FILL: dict[str, Colour] = {
    "open": PAPER,
    "hill": (214, 196, 150),
    "crops": (226, 212, 128),
    "wood": (140, 180, 112),
    "rubble": (190, 186, 178),
    "building": (206, 196, 184),
    "soft cover": (170, 200, 150),
    "hard cover": (160, 170, 180),
}
OTHER_TERRAIN: Colour = (210, 210, 210)
EDGE_COLOUR: dict[str, Colour] = {"hedge": (46, 110, 40), "wall": (110, 106, 100)}
FACING = {
    "n": (0, -1),
    "ne": (1, -1),
    "e": (1, 0),
    "se": (1, 1),
    "s": (0, 1),
    "sw": (-1, 1),
    "w": (-1, 0),
    "nw": (-1, -1),
}
SPARE_COLOURS: Sequence[Colour] = ((39, 174, 96), (142, 68, 173), (211, 84, 0), (44, 62, 80), (22, 160, 133))
PIP: Colour = (200, 20, 20)
#: Wound pips down the square's left side (from its top-left corner), clear of the name below.
PIP_SPOTS = ((5, 17), (5, 25), (5, 33), (13, 33))
PINNED: Colour = (245, 166, 35)
GOLD: Colour = (240, 196, 25)


def _rgb(colour: int) -> Colour:
    return (colour >> 16) & 255, (colour >> 8) & 255, colour & 255


def side_colours(sides: Sequence[str]) -> dict[str, Colour]:
    """Each side's colour; a side whose colour another side already has gets a spare one."""
    chosen: dict[str, Colour] = {}
    spare = iter(SPARE_COLOURS)
    for side in sides:
        colour = _rgb(side_colour(side))
        while colour in chosen.values():
            colour = next(spare, (90, 90, 90))
        chosen[side] = colour
    return chosen


class _Painter:
    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.width, self.height = min(grid.width, MAX_SIDE), min(grid.height, MAX_SIDE)
        self.sides = list(dict.fromkeys(p.side for p in grid.pieces))
        self.colours = side_colours(self.sides)
        board_w = MARGIN * 2 + self.width * CELL
        self.key_rows = self._key_rows(board_w)
        #: Room above the board for its title.
        self.top = TITLE_ROW if grid.title else 0
        size = (
            board_w,
            self.top + MARGIN * 2 + self.height * CELL + KEY_LINE * len(self.key_rows) + (6 if self.key_rows else 0),
        )
        self.image = Image.new("RGB", size, (255, 255, 255))
        self.draw = ImageDraw.Draw(self.image)

    def box(self, x: int, y: int) -> tuple[int, int, int, int]:
        left, top = MARGIN + x * CELL, self.top + MARGIN + y * CELL
        return left, top, left + CELL, top + CELL

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    # --- the board

    def paint(self) -> bytes:
        squares = {(s.x, s.y): s for s in self.grid.squares}
        for y in range(self.height):
            for x in range(self.width):
                self.square(x, y, squares.get((x, y)))
        self.coordinates()
        for s in self.grid.squares:
            if self.on_board(s.x, s.y):
                self.edges(s)
        for piece in self.grid.pieces:
            if self.on_board(piece.x, piece.y):
                self.figure(piece)
        self.key()
        if self.grid.title:
            self.draw.text(
                (self.image.width / 2, TITLE_ROW / 2 + 2),
                _plain(self.grid.title),
                fill=INK,
                font=_font(18),
                anchor="mm",
            )
        out = io.BytesIO()
        self.image.save(out, format="PNG")
        return out.getvalue()

    def coordinates(self) -> None:
        small = _font(12)
        d = self.draw
        top = self.top + MARGIN
        right = MARGIN + self.width * CELL
        bottom = top + self.height * CELL
        d.rectangle((MARGIN, top, right, bottom), outline=INK, width=2)
        for x in range(self.width):
            cx = MARGIN + x * CELL + CELL // 2
            d.text((cx, top - MARGIN // 2), column_name(x), fill=INK, font=small, anchor="mm")
            d.text((cx, bottom + MARGIN // 2), column_name(x), fill=INK, font=small, anchor="mm")
        for y in range(self.height):
            cy = top + y * CELL + CELL // 2
            d.text((MARGIN // 2, cy), str(y + 1), fill=INK, font=small, anchor="mm")
            d.text((right + MARGIN // 2, cy), str(y + 1), fill=INK, font=small, anchor="mm")

    def square(self, x: int, y: int, square: GridSquare | None) -> None:
        kind = square.terrain if square else "open"
        left, top, right, bottom = self.box(x, y)
        d = self.draw
        d.rectangle((left, top, right, bottom), fill=TERRAIN_FILL.get(kind, OTHER_TERRAIN), outline=GRID_LINE)
        if kind == "hill":
            self.hachures(square)  # type: ignore[arg-type]
        elif kind == "crops":
            for i in range(-CELL, CELL, 8):
                d.line(
                    (left + max(0, i), top + max(0, -i), left + min(CELL, CELL + i), top + min(CELL, CELL - i)),
                    fill=(196, 170, 70),
                    width=1,
                )
        elif kind == "wood":
            for cx, cy in ((0.3, 0.3), (0.72, 0.28), (0.28, 0.74), (0.7, 0.7), (0.5, 0.5)):
                px, py, r = left + cx * CELL, top + cy * CELL, CELL * 0.13
                d.ellipse((px - r, py - r, px + r, py + r), fill=(70, 130, 60), outline=(40, 90, 35))
        elif kind == "rubble":
            for cx, cy in ((0.2, 0.3), (0.5, 0.2), (0.75, 0.45), (0.3, 0.7), (0.65, 0.78), (0.45, 0.5)):
                px, py = left + cx * CELL, top + cy * CELL
                d.rectangle((px - 3, py - 2, px + 3, py + 2), fill=(120, 116, 110))
        elif kind == "building":
            inset = 4
            d.rectangle(
                (left + inset, top + inset, right - inset, bottom - inset),
                fill=(160, 82, 60),
                outline=(90, 40, 30),
                width=2,
            )
            d.line((left + inset, top + CELL // 2, right - inset, top + CELL // 2), fill=(110, 50, 36), width=2)
        elif kind not in TERRAIN_FILL:
            d.text((left + 4, top + 3), kind[:1].upper(), fill=INK, font=_font(11))

    def hachures(self, square: GridSquare) -> None:
        """Short strokes on each uphill side, pointing up the slope, as on old maps."""
        left, top, right, bottom = self.box(square.x, square.y)
        colour = (140, 100, 50)
        for side in square.uphill:
            for i in range(1, 6):
                t = i / 6
                px: float
                py: float
                if side in ("n", "s"):
                    px = left + t * CELL
                    py = top if side == "n" else bottom
                    inward = 9 if side == "n" else -9
                    self.draw.line((px, py, px, py + inward), fill=colour, width=2)
                elif side in ("w", "e"):
                    py = top + t * CELL
                    px = left if side == "w" else right
                    inward = 9 if side == "w" else -9
                    self.draw.line((px, py, px + inward, py), fill=colour, width=2)

    def edges(self, square: GridSquare) -> None:
        left, top, right, bottom = self.box(square.x, square.y)
        lines = {
            "n": (left, top, right, top),
            "s": (left, bottom, right, bottom),
            "w": (left, top, left, bottom),
            "e": (right, top, right, bottom),
        }
        for side, kind in square.edges.items():
            if side not in lines:
                continue
            x0, y0, x1, y1 = lines[side]
            colour = EDGE_COLOUR.get(kind, INK)
            if kind == "hedge":
                self.draw.line((x0, y0, x1, y1), fill=colour, width=5)
                steps = 6
                for i in range(steps + 1):
                    px, py = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
                    self.draw.ellipse((px - 4, py - 4, px + 4, py + 4), fill=colour)
            elif kind == "wall":
                self.draw.line((x0, y0, x1, y1), fill=(60, 58, 55), width=8)
                self.draw.line((x0, y0, x1, y1), fill=colour, width=5)
                steps = 6
                for i in range(1, steps):
                    px, py = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
                    if x0 == x1:
                        self.draw.line((px - 2, py, px + 2, py), fill=(60, 58, 55), width=1)
                    else:
                        self.draw.line((px, py - 2, px, py + 2), fill=(60, 58, 55), width=1)
            else:
                self.draw.line((x0, y0, x1, y1), fill=colour, width=5)

    # --- figures

    def figure(self, piece: GridPiece) -> None:
        left, top, right, bottom = self.box(piece.x, piece.y)
        d = self.draw
        cx, cy, r = (left + right) / 2, (top + bottom) / 2 - 2, CELL / 2 - 9
        colour = self.colours.get(piece.side, (90, 90, 90))
        fallen = "fallen" in piece.marks
        if "pinned" in piece.marks:
            d.ellipse((cx - r - 4, cy - r - 4, cx + r + 4, cy + r + 4), outline=PINNED, width=4)
        if piece.facing in FACING:
            dx, dy = FACING[piece.facing]
            norm = math.hypot(dx, dy)
            ux, uy = dx / norm, dy / norm
            tip = (cx + ux * (r + 10), cy + uy * (r + 10))
            base1 = (cx + ux * (r - 3) - uy * 9, cy + uy * (r - 3) + ux * 9)
            base2 = (cx + ux * (r - 3) + uy * 9, cy + uy * (r - 3) - ux * 9)
            d.polygon((tip, base1, base2), fill=INK)
        text = _contrast(colour)
        label, tag = piece.label[:3], piece.tag[:2]
        if fallen:  # lying down: a flat disc, the label on one line
            d.ellipse((cx - r - 4, cy - r * 0.7, cx + r + 4, cy + r * 0.7), fill=colour, outline=INK, width=2)
            d.text((cx, cy), f"{label} {tag}".strip(), fill=text, font=_font(12), anchor="mm")
        else:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=2)
            d.text((cx, cy - 3 if tag else cy), label, fill=text, font=_font(15), anchor="mm")
            if tag:
                d.text((cx, cy + 9), tag, fill=text, font=_font(10), anchor="mm")
        d.text(
            (cx, bottom - 4),
            _fitted(piece.name, CELL - 2),
            fill=INK,
            font=_font(NAME_SIZE),
            anchor="ms",
            stroke_width=2,
            stroke_fill=(255, 255, 255),
        )
        for dx, dy in PIP_SPOTS[: piece.pips]:
            px, py = left + dx, top + dy
            d.ellipse((px - 4, py - 4, px + 4, py + 4), fill=PIP, outline=(255, 255, 255))
        if "leader" in piece.marks:
            _star(d, left + 8, top + 8, 7, GOLD)
        if "pinned" in piece.marks:
            _badge(d, right - 9, top + 8, "P", PINNED, INK)
        if fallen:
            _badge(d, right - 9, bottom - 19, "F", (120, 60, 150), (255, 255, 255))
        elif "unloaded" in piece.marks or "misfire" in piece.marks:
            ring = (200, 20, 20) if "misfire" in piece.marks else (90, 90, 90)
            d.ellipse((right - 12, bottom - 24, right - 2, bottom - 14), fill=(255, 255, 255), outline=ring, width=2)
            if "misfire" in piece.marks:
                d.line((right - 11, bottom - 23, right - 3, bottom - 15), fill=ring, width=2)

    # --- the key

    def _key_rows(self, width: int) -> list[list[tuple[str, str]]]:
        if not self.grid.pieces and not self.grid.squares:
            return []
        items = [("side:" + s, s) for s in self.sides]
        marks = {m for p in self.grid.pieces for m in p.marks}
        if "leader" in marks:
            items.append(("leader", "leader"))
        if any(p.pips for p in self.grid.pieces):
            items.append(("pips", "wound points"))
        if "pinned" in marks:
            items.append(("pinned", "pinned"))
        if "fallen" in marks:
            items.append(("fallen", "fallen"))
        if "unloaded" in marks:
            items.append(("unloaded", "empty musket"))
        if "misfire" in marks:
            items.append(("misfire", "misfire"))
        terrain = list(dict.fromkeys(s.terrain for s in self.grid.squares if s.terrain != "open"))
        items.extend(("terrain:" + k, k) for k in terrain)
        edges = list(dict.fromkeys(kind for s in self.grid.squares for kind in s.edges.values()))
        items.extend(("edge:" + k, k) for k in edges)
        if any(s.uphill for s in self.grid.squares):
            items.append(("uphill", "uphill side"))
        items.extend(
            (f"piece:{p.side}", _plain(f"{p.label} {p.name}" + (f" ({p.tag})" if p.tag else "")))
            for p in self.grid.pieces
        )
        rows: list[list[tuple[str, str]]] = [[]]
        used = 8
        for item in items:
            need = 30 + 7 * len(item[1])
            if used + need > width and rows[-1]:
                rows.append([])
                used = 8
            rows[-1].append(item)
            used += need
        return rows if rows[0] else []

    def key(self) -> None:
        top = self.top + MARGIN * 2 + self.height * CELL + 2
        font = _font(12)
        d = self.draw
        for row in self.key_rows:
            x = 8
            cy = top + KEY_LINE // 2
            for kind, text in row:
                self._key_symbol(kind, x + 9, cy)
                d.text((x + 22, cy), text, fill=INK, font=font, anchor="lm")
                x += 30 + int(d.textlength(text, font=font))
            top += KEY_LINE

    def _key_symbol(self, kind: str, cx: float, cy: float) -> None:
        d = self.draw
        if kind.startswith("side:"):
            colour = self.colours[kind[5:]]
            d.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=colour, outline=INK, width=2)
        elif kind == "leader":
            _star(d, cx, cy, 7, GOLD)
        elif kind == "pips":
            d.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=PIP)
        elif kind == "pinned":
            _badge(d, cx, cy, "P", PINNED, INK)
        elif kind == "fallen":
            _badge(d, cx, cy, "F", (120, 60, 150), (255, 255, 255))
        elif kind in ("unloaded", "misfire"):
            ring = (200, 20, 20) if kind == "misfire" else (90, 90, 90)
            d.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=(255, 255, 255), outline=ring, width=2)
            if kind == "misfire":
                d.line((cx - 4, cy - 4, cx + 4, cy + 4), fill=ring, width=2)
        elif kind.startswith("piece:"):
            colour = self.colours.get(kind[6:], (90, 90, 90))
            d.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=colour, outline=INK, width=1)
        elif kind.startswith("terrain:"):
            self._swatch(kind[8:], cx, cy)
        elif kind.startswith("edge:"):
            colour = EDGE_COLOUR.get(kind[5:], INK)
            d.line((cx - 9, cy, cx + 9, cy), fill=colour, width=5)
        elif kind == "uphill":
            for dx in (-6, 0, 6):
                d.line((cx + dx, cy - 5, cx + dx, cy + 4), fill=(140, 100, 50), width=2)

    def _swatch(self, kind: str, cx: float, cy: float) -> None:
        """A small square of terrain for the key, drawn as the board draws it."""
        d = self.draw
        box = (cx - 8, cy - 8, cx + 8, cy + 8)
        d.rectangle(box, fill=TERRAIN_FILL.get(kind, OTHER_TERRAIN), outline=GRID_LINE)
        if kind == "building":
            d.rectangle((cx - 6, cy - 6, cx + 6, cy + 6), fill=(160, 82, 60), outline=(90, 40, 30))
        elif kind == "wood":
            for dx, dy in ((-3, -3), (3, 2), (-2, 4)):
                d.ellipse((cx + dx - 3, cy + dy - 3, cx + dx + 3, cy + dy + 3), fill=(70, 130, 60))
        elif kind == "crops":
            for i in (-6, -1, 4):
                d.line((cx + i - 2, cy + 7, cx + i + 5, cy - 7), fill=(196, 170, 70), width=1)
        elif kind == "rubble":
            for dx, dy in ((-4, -3), (3, -1), (-1, 4)):
                d.rectangle((cx + dx - 2, cy + dy - 1, cx + dx + 2, cy + dy + 1), fill=(120, 116, 110))
        elif kind == "hill":
            for dx in (-4, 0, 4):
                d.line((cx + dx, cy - 8, cx + dx, cy - 3), fill=(140, 100, 50), width=2)
        elif kind not in TERRAIN_FILL:
            d.text((cx - 5, cy - 7), kind[:1].upper(), fill=INK, font=_font(11))


NAME_SIZE = 10


def _fitted(name: str, width: int) -> str:
    """``name`` as the font draws it, cut with an ellipsis to ``width`` pixels (the key has it whole)."""
    text = _plain(name)
    font = _font(NAME_SIZE)
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _contrast(colour: Colour) -> Colour:
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 160 else (255, 255, 255)


def _badge(d: ImageDraw.ImageDraw, cx: float, cy: float, letter: str, fill: Colour, text: Colour) -> None:
    d.rounded_rectangle((cx - 7, cy - 7, cx + 7, cy + 7), radius=3, fill=fill, outline=INK)
    d.text((cx, cy), letter, fill=text, font=_font(11), anchor="mm")


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Colour) -> None:
    points = []
    for i in range(10):
        angle = -math.pi / 2 + i * math.pi / 5
        radius = r if i % 2 == 0 else r * 0.45
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    d.polygon(points, fill=fill, outline=INK)


def grid_png(grid: Grid) -> bytes:
    return _Painter(grid).paint()
