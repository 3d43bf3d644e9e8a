"""The terminal table: the same commands as on Discord, typed or piped one per line, printed as text.

A line is parsed against the application's declared commands (:mod:`bot.app.commands`), run on the
application with a :class:`~bot.app.replies.Caller` for the player typing, and the reply printed;
a refusal is the sentence of the :class:`~rules.core.RuleError` it raised. This module imports no
discord.py: the terminal is a front-end of the application, beside Discord, not inside it. Only
here may dice be forced (``--dice``, ``--cards``, ``/dice``).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TextIO

from bot.app.commands.declared import Command, LineError, ParsedLine, failure_sentence, read_line, split_line
from bot.app.commands.help import help_text
from bot.app.commands.moves import quick_moves, to_type
from bot.app.commands.table import command_table, groups
from bot.app.replies import Caller, Reply
from bot.app.service import App
from bot.dice import ForcedDice, parse_forced_cards, parse_forced_dice
from bot.render.cards import cards_text, plain
from bot.render.shown import printable
from rules.core import RuleError

CONSOLE_GUILD_ID = 1
META_HELP = """Terminal-only commands:
  /as NAME          act as the player NAME (hot-seat and solo play)
  /dice 6,1,4       force the next die results, in order
  /cards AH,10D,RJ  force the next cards turned from a deck
  /help [TOPIC]     the contents, a ruleset's turn (/help ssg) or one command (/help ssg shoot)
  /quit             leave (the game is saved as you go)"""

_snowflakes = itertools.count()


def snowflake() -> int:
    """An id shaped like Discord's (time in the high bits), unique across runs on one database."""
    return (int(time.time() * 1000) - 1420070400000) << 22 | (next(_snowflakes) & 0x3FFFFF)


def user_id_for(name: str) -> int:
    """A stable id for a terminal player name, so the same name is the same player next time."""
    return 10**15 + zlib.crc32(name.casefold().encode())


class Console:
    """Reads command lines and runs them; one instance per ``skirmish-gm play``."""

    def __init__(
        self,
        app: App,
        forced: ForcedDice,
        *,
        player: str,
        channel_id: int = 1,
        json_mode: bool = False,
        out: TextIO = sys.stdout,
        files_dir: Path | None = None,
    ) -> None:
        self.app: App = getattr(app, "app", app)  # a caller of old may still hand over the Discord bot
        self.forced = forced
        self.player = player
        self.channel_id = channel_id
        self.json_mode = json_mode
        self.out = out
        self.names: dict[int, str] = {}
        self.failures = 0
        self.files_dir = files_dir
        self.saved = 0
        #: Saved files are named after this run's start, so a later run never overwrites them.
        self.run_stamp = time.strftime("%Y%m%d-%H%M%S")

    @property
    def commands(self) -> Mapping[str, Command]:
        """The declared commands the terminal reads its lines against."""
        return command_table()

    def caller(self) -> Caller:
        uid = user_id_for(self.player)
        self.names[uid] = self.player
        return Caller(uid, self.player, CONSOLE_GUILD_ID, self.channel_id, snowflake())

    async def run_lines(self, lines: Iterable[str]) -> int:
        await self.learn_names()
        for line in lines:
            if not await self.run_line(line):
                break
        return 1 if self.failures else 0

    async def learn_names(self) -> None:
        """The players an earlier run met, so a mention after a restart reads ``@Bob``, not an id."""
        async with self.app.store.transaction() as u:
            campaign = await u.campaigns.active_in_channel(self.channel_id)
            members = await u.members.all(campaign.id) if campaign is not None else []
        for member in members:
            self.names.setdefault(member.user_id, member.display_name)

    async def run_line(self, line: str) -> bool:
        """Run one line; False when the player asked to quit."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        if not line.startswith("/"):
            self._fail(line, "Commands start with /: type /help for the list.")
            return True
        try:
            head = line.split()[0].lower()
            if head in ("/quit", "/exit"):
                return False
            if head in ("/help", "/as", "/dice", "/cards"):
                self._meta(head, split_line(line)[1:], line)
                return True
            parsed = read_line(self.commands, line)
        except RuleError as exc:
            self._fail(line, exc.message)
            return True
        await self._invoke(line, parsed)
        return True

    def _meta(self, head: str, args: list[str], line: str) -> None:
        if head == "/help":
            text = help_text(self.commands, groups(), " ".join(args))
            self._ok(line, text if args else f"{text}\n\n{META_HELP}")
        elif head == "/as":
            if not args:
                raise LineError("Say who you are: /as NAME.")
            self.player = " ".join(args)[:64]
            self._ok(line, f"You are now {self.player}.")
        elif head == "/dice":
            values = parse_forced_dice(",".join(args))
            self.forced.push_dice(values)
            self._ok(line, f"Next dice: {', '.join(map(str, self.forced.dice))}.")
        elif head == "/cards":
            cards = parse_forced_cards(",".join(args))
            self.forced.push_cards(cards)
            self._ok(line, f"Next cards: {', '.join(self.forced.cards)}.")

    async def _invoke(self, line: str, parsed: ParsedLine) -> None:
        saved = (list(self.forced.dice), list(self.forced.cards))
        try:
            reply = await parsed.command.run(self.app, self.caller(), parsed.values)
        except Exception as exc:  # one place for errors: a refusal's sentence, or a logged bug
            self._restore(saved)
            self._fail(line, failure_sentence(exc, context=line), refused=True)
            return
        if any(uid not in self.names for uid in reply.ping_user_ids):
            await self.learn_names()  # a player this run has not met yet (joined elsewhere, or imported)
        self._print_reply(line, reply)

    def _restore(self, saved: tuple[list[int], list[str]]) -> None:
        """The forced dice and cards as they were before a refused command."""
        self.forced.dice.clear()
        self.forced.dice.extend(saved[0])
        self.forced.cards.clear()
        self.forced.cards.extend(saved[1])

    def _still_queued(self) -> str:
        """After a refusal, the forced dice and cards still waiting, so a script's writer sees them."""
        queued = []
        if self.forced.dice:
            queued.append(f"dice {', '.join(map(str, self.forced.dice))}")
        if self.forced.cards:
            queued.append(f"cards {', '.join(self.forced.cards)}")
        return f" (Still forced for the next command: {'; '.join(queued)}.)" if queued else ""

    def _content(self, reply: Reply) -> str | None:
        if not reply.content:
            return None
        text = reply.content
        for uid in reply.ping_user_ids:
            text = text.replace(f"<@{uid}>", f"@{self.names.get(uid, 'a player not in this campaign')}")
        return plain(text)

    def _save_files(self, reply: Reply) -> list[str]:
        """Attached files (a board or map picture, an export, a report) are saved in ``--files DIR``,
        as ``<run's start>-<number>-<name>``: never over a file an earlier run (or this one) saved."""
        if self.files_dir is None:
            return []
        self.files_dir.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, data in reply.files:
            self.saved += 1
            stem = f"{self.run_stamp}-{self.saved:04d}"
            path, again = self.files_dir / f"{stem}-{name}", 1
            while True:
                try:
                    with path.open("xb") as out:  # created here, or taken by a run started the same second
                        out.write(data)
                    break
                except FileExistsError:
                    again += 1
                    path = self.files_dir / f"{stem}-{again}-{name}"
            paths.append(str(path))
        return paths

    @staticmethod
    def _attached_text(reply: Reply) -> str:
        """Text attachments (YAML, Markdown) printed in the terminal; pictures only named."""
        parts = []
        for name, data in reply.files:
            if name.endswith((".yaml", ".yml", ".md", ".txt")):
                parts.append(
                    f"--- {name} ---\n{data.decode('utf-8', errors='replace').rstrip()}\n--- end of {name} ---"
                )
            else:
                parts.append(f"(attached {name}: save it with --files DIR)")
        return "\n".join(parts)

    def _print_reply(self, line: str, reply: Reply) -> None:
        saved = self._save_files(reply)
        if self.json_mode:
            self._json(line, True, None, reply, saved)
            return
        text = cards_text(reply.cards)
        if saved:
            text += "".join(f"\n(saved: {path})" for path in saved)
        elif reply.files:
            text += "\n" + self._attached_text(reply)
        content = self._content(reply)
        if content:
            text += "\n>> " + content
        if reply.decision is not None:
            options = ", ".join(f"{c.value} ({c.label})" for c in reply.decision.choices)
            text += f"\n>> decision #{reply.decision.decision_id} for {reply.decision.decider}: {options}"
        elif reply.moves_of is not None:
            text += "\n>> " + self._next_moves(reply)
            if reply.ready:
                text += "\n>> may still act: " + ", ".join(printable(f.name) for f in reply.ready)
        self._write(text)

    def _quick(self, reply: Reply) -> list[str]:
        assert reply.moves_of is not None
        return [f"/{c.name}" for c in quick_moves(self.commands, reply.moves_of, reply.now)]

    def _next_moves(self, reply: Reply) -> str:
        """What Discord offers as buttons under "your move", as a line: the quick moves, then the rest."""
        assert reply.moves_of is not None
        quick = " · ".join(self._quick(reply))
        rest = to_type(self.commands, reply.moves_of, reply.now)
        return " ".join(part for part in (f"next: {quick}." if quick else "", rest) if part)

    def _ok(self, line: str, text: str) -> None:
        if self.json_mode:
            self._write(
                json.dumps(
                    {
                        "ok": True,
                        "command": line,
                        "as": self.player,
                        "error": None,
                        "message": text,
                        "events": [],
                        "dice": [],
                    },
                    ensure_ascii=False,
                )
            )
        else:
            self._write(text)

    def _fail(self, line: str, message: str, *, refused: bool = False) -> None:
        """A refusal: its sentence, and after a command's refusal the forced dice and cards still
        waiting (at the end of the line, or as ``queued`` in ``--json``)."""
        self.failures += 1
        if self.json_mode:
            self._json(line, False, message, None, queued=refused)
        else:
            self._write(f"!! {message}{self._still_queued() if refused else ''}")

    def _json(
        self,
        line: str,
        ok: bool,
        error: str | None,
        reply: Reply | None,
        saved: list[str] | None = None,
        *,
        queued: bool = False,
    ) -> None:
        record: dict[str, Any] = {
            "ok": ok,
            "command": line,
            "as": self.player,
            "error": error,
            "events": [
                {"kind": e.kind, "text": e.text, "data": dict(e.data)} for e in (reply.events if reply and ok else [])
            ],
            "dice": [
                {"kind": r.kind, "sides": r.sides, "value": r.value, "reason": r.reason}
                for r in (reply.rolls if reply and ok else [])
            ],
        }
        if saved:
            record["files"] = saved
        elif reply is not None and reply.files:
            record["attached"] = self._attached_text(reply)
        if ok and reply is not None:
            record["text"] = cards_text(reply.cards)
            if reply.content:
                record["say"] = self._content(reply)
            if reply.decision is None and reply.moves_of is not None:
                record["next"] = self._quick(reply)
                record["ready"] = [f.name for f in reply.ready]
            if reply.decision is not None:
                record["decision"] = {
                    "id": reply.decision.decision_id,
                    "decider": reply.decision.decider,
                    "choices": [c.value for c in reply.decision.choices],
                }
        if queued and (self.forced.dice or self.forced.cards):
            record["queued"] = {"dice": list(self.forced.dice), "cards": list(self.forced.cards)}
        self._write(json.dumps(record, ensure_ascii=False, default=str))

    def _write(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def read_lines(stream: TextIO, prompt: Callable[[], str] | None) -> Iterable[str]:
    """Lines from a pipe, or from an interactive prompt (with line editing) when ``prompt`` is given."""
    if prompt is None:
        yield from stream
        return
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history for input())
    while True:
        try:
            yield input(prompt())
        except EOFError:
            print(file=sys.stderr)
            return
        except KeyboardInterrupt:
            print(file=sys.stderr)
            return
