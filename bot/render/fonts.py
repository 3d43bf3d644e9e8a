"""The pictures' font and text as it can draw it.

Every picture draws with DejaVu Sans (``bot/render/font/``, shipped with its licence as package
data), which has Latin with accents, Greek, Cyrillic and much more, so "René", "Ἀχιλλεύς" and
"Дмитрий" are drawn as written. A letter it lacks (Chinese, say) is written as ``?`` rather than
drawn as an empty box.
"""

from __future__ import annotations

import io
import unicodedata
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from bot.render.characters import is_invisible

#: The font file, inside this package (``pyproject.toml``'s package-data carries it).
FONT_FILE = "font/DejaVuSans.ttf"


@lru_cache(maxsize=1)
def _font_bytes() -> bytes:
    return resources.files("bot.render").joinpath(FONT_FILE).read_bytes()


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(_font_bytes()), size=size)


def glyph_pixels(text: str) -> bytes:
    """The pixels of ``text`` drawn in the font at 20 points on a small black square."""
    image = Image.new("L", (40, 40))
    ImageDraw.Draw(image).text((4, 4), text, font=font(20), fill=255)
    return image.tobytes()


@lru_cache(maxsize=1)
def notdef() -> bytes:
    """The pixels of the font's empty box (its ``.notdef`` glyph), drawn for a letter it lacks."""
    return glyph_pixels("\uffff")


@lru_cache(maxsize=1024)
def drawable(ch: str) -> bool:
    """Whether the font has a glyph for ``ch`` (rather than drawing its empty box)."""
    return glyph_pixels(ch) != notdef()


def plain(text: str) -> str:
    """``text`` as the font can draw it: composed (an accent joined to its letter); line breaks
    and tabs as spaces; controls, invisible characters and loose accents left out (a name made
    before names were checked may hold them); a letter the font lacks as its unaccented form, or
    ``?``."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ch in "\n\r\t":
            out.append(" ")
        elif is_invisible(ch) or unicodedata.combining(ch):
            continue
        elif ch.isascii() or drawable(ch):
            out.append(ch)
        else:
            out.append(unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode() or "?")
    return "".join(out)
