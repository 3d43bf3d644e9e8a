"""How long ``skirmish-gm verify`` takes on the hostile files it must refuse, and on the largest it reads.

Each file is written to a temporary folder and checked in this process with
:func:`bot.verify.verify_file` (the command's own function, without the interpreter's start-up):
100,000 nested JSON lists in a report's dice block, 20,000 nested YAML lists (flow and block
style), a report block of 8 MiB (the most ``/game report`` sends, so the largest block ``verify``
reads) of ``[]`` pairs, which the nesting count must walk to the end, one of 63 MiB (refused by
its size), and 1,200 alias copies of a 2,000-draw list.

    python -m bench.verify_bounds
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from bot.render.report import DICE_MARK
from bot.verify import verify_file


def report_with(block: str) -> str:
    return f"# A battle\n\n## Dice\n\n{DICE_MARK}\n\n```json\n{block}\n```\n"


def files() -> dict[str, str]:
    draws = json.dumps([{"k": 0, "kind": "die", "size": 6, "value": 1, "reason": "x"}] * 2000)
    return {
        "deep-json.md": report_with("[" * 100_000 + "]" * 100_000),
        "deep-flow.yaml": "dice: " + "[" * 20_000 + "]" * 20_000 + "\n",
        "deep-block.yaml": "dice:\n" + "- " * 20_000 + "x\n",
        "flat-8MiB.md": report_with("[]" * (4 * 2**20 - 8)),
        "flat-63MiB.md": report_with("[]" * (63 * 2**19)),
        "aliases.yaml": f"dice:\n- &doc {{commitment: c, secret: s, drawn: 2000, draws: {draws}}}\n"
        + "- *doc\n" * 1200,
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name, text in files().items():
            path = Path(folder) / name
            path.write_text(text, encoding="utf-8")
            began = time.perf_counter()
            status, lines = verify_file(path)
            took = time.perf_counter() - began
            print(f"{name:16} {path.stat().st_size / 2**20:6.1f} MiB  {took:6.2f} s  exit {status}  {lines[0][:90]}")


if __name__ == "__main__":
    main()
