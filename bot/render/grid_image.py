"""A grid board as a PNG: coordinates, terrain, edges, and every figure with its side's colour,
facing, label, wound pips and marks."""
from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw, ImageFont

from bot.app.replies import side_colour
from bot.render.grid_text import column_name
from rules.core import Grid

CELL = 48
MARGIN = 28
TERRAIN_FILL = {
    "open": (236, 232, 214), "hill": (205, 190, 150), "building": (150, 140, 135),
    "soft cover": (170, 200, 150), "hard cover": (160, 170, 180), "wood": (120, 170, 110),
}
EDGE_COLOUR = {"hedge": (40, 120, 40), "wall": (90, 90, 90)}
FACING = {"n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1), "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}
MAX_SIDE = 60


def _rgb(colour: int) -> tuple[int, int, int]:
    return (colour >> 16) & 255, (colour >> 8) & 255, colour & 255


def grid_png(grid: Grid) -> bytes:
    width, height = min(grid.width, MAX_SIDE), min(grid.height, MAX_SIDE)
    image = Image.new("RGB", (MARGIN + width * CELL + 2, MARGIN + height * CELL + 2), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=14)
    small = ImageFont.load_default(size=11)
    squares = {(s.x, s.y): s for s in grid.squares}

    def box(x: int, y: int) -> tuple[int, int, int, int]:
        left, top = MARGIN + x * CELL, MARGIN + y * CELL
        return left, top, left + CELL, top + CELL

    for y in range(height):
        draw.text((4, MARGIN + y * CELL + CELL // 2 - 7), str(y + 1), fill=(0, 0, 0), font=small)
        for x in range(width):
            square = squares.get((x, y))
            draw.rectangle(box(x, y), fill=TERRAIN_FILL.get(square.terrain if square else "open", (220, 220, 220)), outline=(120, 120, 120))
            if square and square.terrain == "hill":
                draw.text((box(x, y)[0] + 3, box(x, y)[1] + 2), "^", fill=(110, 80, 40), font=small)
    for x in range(width):
        draw.text((MARGIN + x * CELL + CELL // 2 - 4, 6), column_name(x), fill=(0, 0, 0), font=small)
    for square in grid.squares:
        if square.x >= width or square.y >= height:
            continue
        left, top, right, bottom = box(square.x, square.y)
        lines = {"n": (left, top, right, top), "s": (left, bottom, right, bottom), "w": (left, top, left, bottom), "e": (right, top, right, bottom)}
        for side, kind in square.edges.items():
            if side in lines:
                draw.line(lines[side], fill=EDGE_COLOUR.get(kind, (0, 0, 0)), width=5)
    for piece in grid.pieces:
        if piece.x >= width or piece.y >= height:
            continue
        left, top, right, bottom = box(piece.x, piece.y)
        cx, cy, r = (left + right) // 2, (top + bottom) // 2, CELL // 2 - 7
        colour = _rgb(side_colour(piece.side))
        if piece.facing in FACING:
            dx, dy = FACING[piece.facing]
            norm = math.hypot(dx, dy)
            tip = (cx + dx / norm * (r + 6), cy + dy / norm * (r + 6))
            draw.line((cx, cy, *tip), fill=(0, 0, 0), width=3)
        outline = (0, 0, 0) if "pinned" not in piece.marks else (230, 180, 0)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=outline, width=3)
        draw.text((cx, cy), piece.label[:2], fill=(255, 255, 255), font=font, anchor="mm")
        for pip in range(min(piece.pips, 4)):
            draw.ellipse((left + 3 + pip * 8, bottom - 9, left + 9 + pip * 8, bottom - 3), fill=(200, 0, 0))
        if "fallen" in piece.marks:
            draw.line((left + 6, top + 6, right - 6, bottom - 6), fill=(0, 0, 0), width=3)
        if "pinned" in piece.marks:
            draw.text((right - 10, top + 2), "P", fill=(180, 120, 0), font=small)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
