"""``skirmish-gm verify`` passes on the battle's report: the dice block is read as the command reads
it, and every draw recomputes from the revealed secret, which matches the commitment shown at the
start. (Self-play draws battle dice from a seeded stream, so the check is real: docs/selfplay.md.)"""

from __future__ import annotations

from bot.selfplay.invariants import Check, End
from bot.verify import UnreadableFile, check, documents_in


class DiceVerify(Check):
    name = "verify passes on the report"
    key = "verify"

    def at_end(self, end: End) -> list[str]:
        if end.report is None:
            return ["the finished battle's /game report attached no Markdown"]
        try:
            documents = documents_in(end.report)
        except UnreadableFile as exc:
            return [f"verify cannot read the report: {exc}"]
        return [f"verify: {c.lines()[0]}" for c in map(check, documents) if not c.ok]
