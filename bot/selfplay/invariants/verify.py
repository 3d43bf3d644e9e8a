"""``skirmish-gm verify`` passes on the battle's report: the dice block is read as the command reads
it, and every draw recomputes from the revealed secret, which matches the commitment shown at the
start; the report lists as many draws as the battle made, and its narrative shows each as the
dice block says. (Self-play draws battle dice from a seeded stream, so the check is real: docs/selfplay.md.)"""

from __future__ import annotations

from bot.selfplay.invariants.check import Check, End
from bot.verify import UnreadableFile, check, documents_in, narrative_of


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
        narrative = narrative_of(end.report)
        checked = [check(document, narrative) for document in documents]
        return [f"verify: {c.lines()[0]}" for c in checked if not c.ok]
