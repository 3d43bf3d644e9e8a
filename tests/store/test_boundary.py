"""The store is the only code that talks to the database: nothing else imports SQLAlchemy."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STORE = ROOT / "bot" / "store"
PRODUCTION = ("bot", "cogs", "rules")
DATABASE_LIBRARIES = ("sqlalchemy", "aiosqlite", "asyncpg", "sqlite3", "alembic")


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, wherever the import stands (inside functions too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def database_imports(path: Path) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for line, module in imported_modules(path)
        if module.split(".")[0] in DATABASE_LIBRARIES
    ]


def outside_the_store() -> list[Path]:
    return sorted(
        path
        for folder in PRODUCTION
        for path in (ROOT / folder).rglob("*.py")
        if STORE not in path.parents and "migrations" not in path.parts
    )


def test_no_module_outside_the_store_imports_a_database_library() -> None:
    offending = [line for path in outside_the_store() for line in database_imports(path)]
    assert offending == []


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    sneaky = ROOT / "bot" / "_sneaky_for_test.py"
    try:
        sneaky.write_text("def f():\n    from sqlalchemy import select\n    return select\n", encoding="utf-8")
        assert database_imports(sneaky) == ["bot/_sneaky_for_test.py:2 imports sqlalchemy"]
    finally:
        sneaky.unlink()


@pytest.mark.parametrize("module", ["bot.store.store", "bot.store.tx", "bot.store.games"])
def test_the_store_itself_is_where_sqlalchemy_is_used(module: str) -> None:
    path = ROOT / Path(*module.split(".")).with_suffix(".py")
    assert any(name.startswith("sqlalchemy") for _, name in imported_modules(path))
