"""Pillow's own font (the only one every machine has) and text as it can draw it, for every picture."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.render.characters import is_invisible


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


#: Pillow's own font (the only one every machine has) lacks these; they are written plainly.
_PLAIN = str.maketrans({"—": "-", "–": "-", "−": "-", "″": '"', "′": "'", "×": "x", "→": "->", "½": "1/2"})


@lru_cache(maxsize=1024)
def _drawable(ch: str) -> bool:
    """Whether the font has a glyph for ``ch`` (rather than drawing its empty box)."""

    def drawn(text: str) -> bytes:
        image = Image.new("L", (40, 40))
        ImageDraw.Draw(image).text((4, 4), text, font=font(20), fill=255)
        return image.tobytes()

    return drawn(ch) != drawn("\uffff")


def plain(text: str) -> str:
    """``text`` as the font can draw it: accents dropped and other missing letters as ``?``; line
    breaks and tabs as spaces, other controls and invisible characters left out (a name made
    before names were checked may hold them)."""
    out = []
    for ch in text.translate(_PLAIN):
        if ch in "\n\r\t":
            out.append(" ")
        elif is_invisible(ch) or unicodedata.combining(ch):
            continue
        elif ch.isascii() or _drawable(ch):
            out.append(ch)
        else:
            out.append(unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode() or "?")
    return "".join(out)
