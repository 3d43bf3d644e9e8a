"""What players do around a battle's actions: /decide a waiting decision, /roll free dice, and ask
the /odds of an action, typed as it would be played."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.app.commands.declared import Command, parse_line, split_line
from bot.app.replies import Caller, Refusal, Reply
from bot.app.service import App
from rules import RULESETS
from rules.specs import Kind, Params, option

#: The longest action line /odds reads: Discord is told a longer limit, so a longer line reaches
#: the bot and is refused with a sentence rather than by Discord's own word.
ACTION_LIMIT = 500
AS_PLAYED = 'give it as you would play it, like "ssg shoot shooter:Rossi target:Bo range:14".'


@dataclass(frozen=True, kw_only=True)
class DecideOptions(Params):
    choice: str = option("Your choice", required=True, length=100)
    decision: int | None = option(
        "Which decision, by number (default: the oldest waiting for you)", Kind.WHOLE, lowest=1, highest=2**53 - 1
    )


@dataclass(frozen=True, kw_only=True)
class RollOptions(Params):
    dice: str = option("Dice notation: 2d6+1, 4d6kh3, 1d10", required=True, length=200)
    reason: str | None = option("What the roll is for", length=100)
    secret: bool | None = option(
        "Game master only: roll privately; the log keeps it and shows it when the battle ends", Kind.FLAG
    )


@dataclass(frozen=True, kw_only=True)
class OddsOptions(Params):
    action: str = option(
        'The action as you would give it: "ssg shoot shooter:Rossi target:Bo range:14"', required=True, length=6000
    )


async def _decide(app: App, caller: Caller, p: DecideOptions) -> Reply:
    return await app.decisions.decide(caller, p.choice, p.decision)


async def _roll(app: App, caller: Caller, p: RollOptions) -> Reply:
    return await app.rolls.roll(caller, p.dice, p.reason, bool(p.secret))


async def complete_choice(app: App, caller: Caller, typed: str) -> list[tuple[str, str]]:
    offered = []
    for decision in await app.decisions.open_decisions(caller):
        for choice in decision.choices:
            label = f"{choice.label} — {decision.prompt}"
            if typed.casefold() in label.casefold():
                offered.append((label[:100], choice.value[:100]))
    return offered[:25]


async def odds_action(commands: Mapping[str, Command], action: str) -> tuple[str, str, dict[str, Any], str]:
    """The action /odds is asked about, read as its own command line against ``commands``:
    ``(ruleset, action, options, the line as typed)``; a refusal says what is wrong with it."""
    if len(action) > ACTION_LIMIT:
        raise Refusal(
            f"That action is {len(action):,} characters long; /odds reads at most {ACTION_LIMIT}; {AS_PLAYED}"
        )
    typed = "/" + action.strip().lstrip("/")
    words = split_line(typed)
    if words == ["/"] or (words[0][1:].lower() in RULESETS and (len(words) < 2 or ":" in words[1])):
        raise Refusal(f"Name the action: {AS_PLAYED}")
    parsed = parse_line(commands, words)
    if parsed.command.group not in RULESETS:
        raise Refusal("Ask the odds of a ruleset's action, like ssg shoot or sharpe shoot.")
    if parsed.command.ruleset is None:
        raise Refusal("That command is a question, not an action with dice: ask it directly.")
    ruleset, name, params = parsed.command.action(parsed.values)
    return ruleset, name, params, typed


def odds_command(commands: Mapping[str, Command]) -> Command:
    """/odds, reading its action against ``commands`` (the table it is part of)."""

    async def ask(app: App, caller: Caller, p: OddsOptions) -> Reply:
        ruleset, name, params, typed = await odds_action(commands, p.action)
        return await app.odds_part.odds(caller, ruleset, name, params, typed)

    async def complete(app: App, caller: Caller, typed: str) -> list[tuple[str, str]]:
        ruleset = await app.rolls.campaign_ruleset(caller)
        if ruleset is None:
            return []
        names = [name for name, c in commands.items() if c.group == ruleset]
        wanted = typed.strip().lower()
        if " ".join(wanted.split()[:2]) in names:
            return [(typed[:100], typed[:100])]
        return [(n + " …", n + " ") for n in names if n.startswith(wanted) or wanted in n][:25]

    return Command(
        ("odds",),
        "The chances of an action before you roll (only you see them)",
        OddsOptions,
        ask,
        completes={"action": complete},
        slow=True,
    )


COMMANDS = (
    Command(
        ("decide",),
        "Answer a decision that is waiting for you",
        DecideOptions,
        _decide,
        lock=True,
        picture=True,
        follows=True,
        completes={"choice": complete_choice},
    ),
    Command(("roll",), "Roll dice in the open, like 2d6+1 or 4d6kh3", RollOptions, _roll, lock=True),
)
