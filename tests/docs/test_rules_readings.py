"""The project's rules readings in ``docs/rules/`` (issue 15, item 5).

Code and tests cite readings of unclear rules as ``A-<SLUG>-<n>``; each must resolve to a heading
on its ruleset's page, so a player (or a newcomer) can look up what the citation means.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import RULESETS

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "docs" / "rules"
SCANNED_DIRS = ("bot", "cogs", "rules", "tests")
SCANNED_SUFFIXES = (".py", ".yaml")
CITATION = re.compile(r"\bA-(SSG|SHARPE|NSR|YASG|MED)-\d+\b")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*$", re.MULTILINE)
HEADING_ID = re.compile(r"^(A-(SSG|SHARPE|NSR|YASG|MED)-\d+)\b")
LINK_TO_ANCHOR = re.compile(r"\]\(#([^)\s]+)\)")
#: The prefix of a ruleset's identifiers -> its page.
PAGE_OF_PREFIX = {"SSG": "ssg.md", "SHARPE": "sharpe.md", "NSR": "nsr.md", "YASG": "yasg.md", "MED": "medieval.md"}


def _scanned_files() -> Iterator[Path]:
    for top in SCANNED_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SCANNED_SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
                yield path


def cited_readings() -> dict[str, list[str]]:
    """Each identifier cited in the code and tests -> where (``path:line``), in file order."""
    found: dict[str, list[str]] = {}
    for path in _scanned_files():
        text = path.read_text(encoding="utf-8")
        for match in CITATION.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.setdefault(match.group(0), []).append(f"{path.relative_to(ROOT)}:{line}")
    return found


def headings(page: Path) -> list[str]:
    """The text of every heading on a page (fenced code blocks hold none on these pages)."""
    return HEADING.findall(page.read_text(encoding="utf-8"))


def reading_headings(page: Path) -> list[str]:
    """The identifiers that open a heading on ``page`` (``### A-SSG-6 — line of sight`` -> A-SSG-6)."""
    return [m.group(1) for h in headings(page) if (m := HEADING_ID.match(h))]


def anchor(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def prefix_of(identifier: str) -> str:
    return identifier.split("-")[1]


def page_names() -> list[str]:
    return sorted(set(PAGE_OF_PREFIX.values()))


def test_the_scan_finds_the_citations() -> None:
    cited = cited_readings()
    assert {prefix_of(i) for i in cited} == set(PAGE_OF_PREFIX), "the scan should find citations of every ruleset"


def test_every_cited_reading_is_a_heading_on_its_rulesets_page() -> None:
    on_page = {name: set(reading_headings(PAGES / name)) for name in page_names()}
    missing = [
        f"{identifier} (cited at {', '.join(where[:3])}) has no heading in docs/rules/{PAGE_OF_PREFIX[prefix_of(identifier)]}"
        for identifier, where in sorted(cited_readings().items())
        if identifier not in on_page[PAGE_OF_PREFIX[prefix_of(identifier)]]
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("name", page_names())
def test_a_pages_headings_are_unique(name: str) -> None:
    page = PAGES / name
    texts = headings(page)
    repeated = sorted({h for h in texts if texts.count(h) > 1})
    assert not repeated, f"{name} repeats headings: {repeated}"
    ids = reading_headings(page)
    twice = sorted({i for i in ids if ids.count(i) > 1})
    assert not twice, f"{name} has more than one heading for {twice}"


@pytest.mark.parametrize("name", page_names())
def test_a_page_holds_only_its_own_rulesets_readings(name: str) -> None:
    strangers = [i for i in reading_headings(PAGES / name) if PAGE_OF_PREFIX[prefix_of(i)] != name]
    assert not strangers, f"{name} has headings for another ruleset's readings: {strangers}"


@pytest.mark.parametrize("name", page_names())
def test_a_pages_links_to_its_own_headings_resolve(name: str) -> None:
    page = PAGES / name
    anchors = {anchor(h) for h in headings(page)}
    broken = sorted(set(LINK_TO_ANCHOR.findall(page.read_text(encoding="utf-8"))) - anchors)
    assert not broken, f"{name} links to anchors no heading has: {broken}"


def test_the_index_links_a_page_for_every_ruleset() -> None:
    index = (PAGES / "README.md").read_text(encoding="utf-8")
    for slug in RULESETS:
        assert (PAGES / f"{slug}.md").is_file(), f"docs/rules/{slug}.md is missing"
        assert f"]({slug}.md)" in index, f"docs/rules/README.md does not link {slug}.md"
