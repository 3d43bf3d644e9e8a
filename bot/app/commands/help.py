"""/help built from the declared commands: the same pages on Discord and at the terminal, so neither
can drift from the commands the bot really has.

A topic is empty (the contents: the rulesets, the shared commands, how to begin), a ruleset or a
group of commands (its commands in the order a turn uses them, which is the order they are
declared in), or one command (its options, each with its type and choices, and an example line).
A long topic is cut into pages; Discord shows them with buttons, the terminal all at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.app.commands.declared import Command, type_name
from bot.app.replies import Card, HelpReply
from rules import RULESETS, get_engine
from rules.core import RuleError

PAGE_CHARS = 1800
#: The commands every ruleset shares, in the order a group meets them.
SHARED_ORDER = ("campaign", "roster", "map", "game", "decide", "roll", "odds", "help")
GETTING_STARTED = (
    "**Getting started**\n"
    "1. The game master: `/campaign new name: ruleset:` in the channel you play in.\n"
    "2. Each player: `/campaign join side:`; the game master approves.\n"
    "3. Each player: `/roster add name: kind:` for each figure (or `/roster import`).\n"
    "4. The game master: `/game start`; the bot pings whoever moves first.\n"
    "Then `/help topic:<ruleset>` lists a turn's commands, `/help topic:<command>` one command."
)
#: Sample values for an example line, by option name; else by type.
SAMPLES = {
    "figure": "Rossi",
    "shooter": "Rossi",
    "fighter": "Rossi",
    "attacker": "Rossi",
    "target": "Bo",
    "opponent": "Bo",
    "defender": "Bo",
    "name": "Rossi",
    "unit": "1st Company",
    "side": "red",
    "dice": "2d6+1",
    "at": '"12,6"',
    "to": '"12,6"',
    "choice": "approve",
}
BY_TYPE = {"integer": "2", "number": "4.5", "boolean": "true", "attachment": "roster.yaml"}


@dataclass(frozen=True)
class Group:
    """A group of commands (``/campaign``), or a command of its own (``/roll``)."""

    name: str
    description: str
    commands: tuple[Command, ...]

    @property
    def is_group(self) -> bool:
        return len(self.commands) != 1 or self.commands[0].path != (self.name,)


def help_reply(
    commands: Mapping[str, Command],
    groups: Mapping[str, str],
    topic: str | None = None,
    page: int = 1,
) -> HelpReply:
    """Page ``page`` of the help on ``topic``, private to whoever asked (``groups``: each group's sentence)."""
    key, title, text = _topic(commands, groups, (topic or "").strip().casefold())
    pages = _paged(text, PAGE_CHARS)
    page = min(max(page, 1), len(pages))
    card = Card(title=title, description=pages[page - 1])
    if len(pages) > 1:
        card.footer = f"Page {page} of {len(pages)}"
    return HelpReply(cards=[card], ephemeral=True, topic=key, page=page, pages=len(pages))


def help_text(commands: Mapping[str, Command], groups: Mapping[str, str], topic: str | None = None) -> str:
    """The whole help on ``topic`` as plain text, every page (the terminal's ``/help``)."""
    _, title, text = _topic(commands, groups, (topic or "").strip().casefold())
    return f"{title}\n{text}".replace("**", "").replace("`", "")


def topics(commands: Mapping[str, Command]) -> list[str]:
    """Every topic help knows: the rulesets and groups, then each command."""
    return [*_groups(commands, {}), *commands]


def command_help(command: Command) -> str:
    """One command: what it does, each option, and an example line."""
    lines = [f"`/{command.name}` — {command.description}", ""]
    for o in command.options:
        choices = f" (one of {', '.join(o.labels or o.choices)})" if o.choices else ""
        need = "" if o.required else ", optional"
        lines.append(f"• `{o.name}` ({type_name(o)}{need}): {o.help}{choices}")
    if not command.options:
        lines.append("No options.")
    lines += ["", f"Example: `{example(command)}`"]
    return "\n".join(lines)


def example(command: Command) -> str:
    """A line that reads like a real use of ``command``: its required options with sample values
    (an option's own example first)."""
    parts = [f"/{command.name}"]
    for o in command.options:
        if not o.required:
            continue
        value = o.example or (o.choices[0] if o.choices else SAMPLES.get(o.name))
        value = value or BY_TYPE.get(type_name(o), o.name.upper())
        parts.append(f"{o.name}:{value}")
    return " ".join(parts)


def _groups(commands: Mapping[str, Command], sentences: Mapping[str, str]) -> dict[str, Group]:
    members: dict[str, list[Command]] = {}
    for command in commands.values():
        members.setdefault(command.group, []).append(command)
    found = {
        name: Group(name, sentences.get(name) or listed[0].description, tuple(listed))
        for name, listed in members.items()
    }
    order = [*RULESETS, *SHARED_ORDER]
    return dict(sorted(found.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order), kv[0])))


def _topic(commands: Mapping[str, Command], sentences: Mapping[str, str], wanted: str) -> tuple[str, str, str]:
    """The topic's key, its title and its whole text (``topic:ssg`` typed at the terminal is ``ssg``)."""
    wanted = " ".join(wanted.removeprefix("topic:").split()).lstrip("/")
    groups = _groups(commands, sentences)
    if not wanted:
        return "", "Skirmish GM: help", _contents(groups)
    group = groups.get(wanted)
    if group is not None and group.is_group:
        text = _group_text(group, with_description=wanted in RULESETS)
        if wanted in RULESETS:
            text += "".join(f"\n\n**{heading}**\n{body}" for heading, body in get_engine(wanted).about())
        title = f"/{wanted}: {RULESETS[wanted][1]}" if wanted in RULESETS else f"/{wanted}: {group.description}"
        return wanted, title, text
    if wanted in commands:
        return wanted, f"/{wanted}", command_help(commands[wanted])
    raise RuleError(f"There is no help on {wanted[:40]!r}: /help lists the rulesets and commands.")


def _contents(groups: Mapping[str, Group]) -> str:
    rulesets = [f"• `/{n}` — {RULESETS[n][1]}" for n in groups if n in RULESETS]
    shared = [f"• `/{n}` — {g.description}" for n, g in groups.items() if n not in RULESETS]
    return "\n".join(
        [
            "**Rulesets** (a channel plays one; `/help topic:<ruleset>` for its turn)",
            *rulesets,
            "",
            "**Every ruleset** (`/help topic:<command>` for one command's options)",
            *shared,
            "",
            GETTING_STARTED,
        ]
    )


def _group_text(group: Group, *, with_description: bool) -> str:
    lines = [group.description, ""] if with_description else []
    lines += [f"• `/{c.name}` — {c.description}" for c in group.commands]
    first = group.commands[0].name
    lines += ["", "`/help topic:<command>` shows a command's options, e.g. " + f"`/help topic:{first}`."]
    return "\n".join(lines)


def _paged(text: str, page_chars: int) -> list[str]:
    """``text`` in pages of at most ``page_chars``, cut between lines."""
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for line in text.split("\n"):
        if current and size + len(line) + 1 > page_chars:
            pages.append("\n".join(current).strip("\n"))
            current, size = [], 0
        current.append(line[:page_chars])
        size += len(line) + 1
    pages.append("\n".join(current).strip("\n"))
    return [p for p in pages if p] or [""]
