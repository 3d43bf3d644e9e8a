"""The import rules of the Discord adapter, read from the source with ``ast``.

* Nothing in ``bot/`` imports ``cogs`` (the client loads the cogs by name; each registers its own
  buttons), not even inside a function.
* Only ``bot/adapter/`` imports discord.py.

Every ``import`` and ``from … import`` counts, wherever it stands: at the top, in a function, under
``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = "bot/adapter/"

#: Modules outside the adapter that still import discord.py, and why. They are not this change's
#: files; once one is moved (or stops importing discord), its entry must go: the test says so.
NOT_YET_IN_THE_ADAPTER: dict[str, str] = {}


def imported(source: str) -> list[tuple[int, str]]:
    """(line, module) for every absolute import in ``source``; relative ones stay inside ``bot``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return sorted(found)


def imports_of(package: str, path: str, source: str) -> list[str]:
    """``path:line imports name`` for each import of ``package`` or one of its modules."""
    return [
        f"{path}:{line} imports {name}"
        for line, name in imported(source)
        if name == package or name.startswith(package + ".")
    ]


def cogs_imports(path: str, source: str) -> list[str]:
    return imports_of("cogs", path, source)


def discord_imports(path: str, source: str) -> list[str]:
    return [] if path.startswith(ADAPTER) else imports_of("discord", path, source)


def bot_modules() -> dict[str, str]:
    modules = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in (ROOT / "bot").rglob("*.py")}
    assert f"{ADAPTER}client.py" in modules and "bot/__main__.py" in modules
    return modules


def test_nothing_in_bot_imports_the_cogs() -> None:
    found = [line for path, source in bot_modules().items() for line in cogs_imports(path, source)]
    assert found == []


def test_only_the_adapter_imports_discord() -> None:
    found = {path: discord_imports(path, source) for path, source in bot_modules().items()}
    outside = [line for path, lines in found.items() if path not in NOT_YET_IN_THE_ADAPTER for line in lines]
    assert outside == []
    moved = [path for path in NOT_YET_IN_THE_ADAPTER if not found.get(path)]
    assert moved == [], "no longer imports discord: take it off NOT_YET_IN_THE_ADAPTER"


VIOLATIONS = """
from __future__ import annotations
import os, cogs
import cogs.game as game
from cogs import extensions
from typing import TYPE_CHECKING
from cogscape import nothing
from . import sibling

if TYPE_CHECKING:
    import discord.ext.commands

def late():
    from cogs.decisions import DecisionCog

class Late:
    def method(self):
        from discord import app_commands
        import discord
"""


def test_the_checks_see_every_form_of_import() -> None:
    assert cogs_imports("bot/x.py", VIOLATIONS) == [
        "bot/x.py:3 imports cogs",
        "bot/x.py:4 imports cogs.game",
        "bot/x.py:5 imports cogs",
        "bot/x.py:14 imports cogs.decisions",
    ]
    assert discord_imports("bot/x.py", VIOLATIONS) == [
        "bot/x.py:11 imports discord.ext.commands",
        "bot/x.py:18 imports discord",
        "bot/x.py:19 imports discord",
    ]
    assert discord_imports("bot/adapter/x.py", VIOLATIONS) == []
    assert len(cogs_imports("bot/adapter/x.py", VIOLATIONS)) == 4  # the adapter may not import the cogs either
