"""When two names look the same to a player: "Rоssi" (with a Cyrillic о), "Ｒossi" and "ROSSI" all
look like "Rossi".

Two names look alike when they are equal after Unicode's compatibility form (NFKC: fullwidth and
styled letters become plain ones), and then either after case folding or as they are, mapped to
their confusables skeleton (Unicode Technical Standard 39: every letter that looks like another,
from any script, replaced by one representative). The skeleton's table is Unicode's
``confusables.txt`` as the ``confusable_homoglyphs`` package ships it; that package keeps each
source character and its prototype as a pair both ways, so the pairs are joined here into classes
and each class is written as one representative (its multi-letter prototype when it has one:
"m" looks like "rn").

Both the folded and the unfolded skeleton are compared: folding first makes "ROSSI" look like
"Rossi", while only the unfolded one sees that a capital I looks like a small l ("Ivan", "lvan").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache

#: Direction marks the package's data wraps around right-to-left letters; not part of the letters.
_MARKS = str.maketrans("", "", "\u200e\u200f")


@cache
def _representatives() -> dict[str, str]:
    """Each confusable character mapped to its class's representative (the package's table is read
    at the first name checked, not when the bot starts)."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def find(item: str) -> str:
        parent.setdefault(item, item)
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    degree: dict[str, int] = {}
    for key, homoglyphs in confusables_data.items():
        a = key.translate(_MARKS)
        for homoglyph in homoglyphs:
            b = homoglyph["c"].translate(_MARKS)
            if not a or not b or a == b:
                continue
            parent[find(a)] = find(b)
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
    classes: dict[str, list[str]] = {}
    for item in parent:
        classes.setdefault(find(item), []).append(item)
    table: dict[str, str] = {}
    for members in classes.values():
        longer = [m for m in members if len(m) > 1]
        chosen = min(longer) if longer else min(members, key=lambda m: (-degree.get(m, 0), m))
        table.update((m, chosen) for m in members if len(m) == 1 and m != chosen)
    return table


def skeleton(text: str) -> str:
    """``text`` with every look-alike letter replaced by its class's representative (UTS 39)."""
    table = _representatives()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in decomposed))


@lru_cache(maxsize=4096)
def look_alike_keys(name: str) -> tuple[str, str]:
    """What two names are compared by: the folded skeleton, then the unfolded one."""
    plain = " ".join(unicodedata.normalize("NFKC", name).split())
    folded = unicodedata.normalize("NFKC", plain.casefold())
    return skeleton(folded), skeleton(plain)


def looks_like(a: str, b: str) -> bool:
    return any(x == y for x, y in zip(look_alike_keys(a), look_alike_keys(b), strict=True))


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` looks like, or None."""
    return next((other for other in others if looks_like(name, other)), None)
