"""The rules core stays pure, and every table shipped with it loads and validates."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rules
from rules import RULESETS, get_engine
from rules.core import DataError, RuleError
from rules.tables import base_tables, read_yaml_text

RULES_DIR = Path(rules.__file__).parent
#: No Discord, no database, no global random, no clock (a time budget is passed in: rules.odds.Budget).
FORBIDDEN = {
    "discord",
    "sqlalchemy",
    "aiosqlite",
    "asyncpg",
    "alembic",
    "random",
    "bot",
    "cogs",
    "secrets",
    "time",
    "datetime",
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted(RULES_DIR.rglob("*.py")), ids=lambda p: str(p.relative_to(RULES_DIR)))
def test_rules_import_no_discord_database_global_random_or_clock(path: Path) -> None:
    assert not imported_modules(path) & FORBIDDEN


@pytest.mark.parametrize("slug", sorted(RULESETS))
def test_every_shipped_table_loads_and_validates(slug: str) -> None:
    package = RULESETS[slug][0].rsplit(".", 1)[0]
    assert base_tables(package)
    engine = get_engine(slug)
    assert engine.slug == slug and engine.sides() and engine.kinds()


def test_every_ruleset_package_has_tables() -> None:
    packages = {p.parent.name for p in RULES_DIR.glob("*/tables.yaml")}
    assert packages == set(RULESETS)


def test_unknown_ruleset_is_a_rule_error() -> None:
    with pytest.raises(RuleError):
        get_engine("chess")


def test_malformed_yaml_names_its_line() -> None:
    with pytest.raises(DataError) as caught:
        read_yaml_text("weapons:\n  rifle: {short: 12\n  pistol: 3\n", "house rules")
    assert caught.value.problems[0].startswith("line ")


def test_house_rules_are_validated_like_the_tables() -> None:
    with pytest.raises(DataError) as caught:
        get_engine("ssg", {"weapons": {"rifle": {"short": "far"}}, "victory_removed": "four"})
    problems = " | ".join(caught.value.problems)
    assert "weapons.rifle.short" in problems and "victory_removed" in problems
