"""What the slowest answers overlapped: the pauses :mod:`bench.traced` saw in the bot process."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.traced import THRESHOLD_MS

#: The order a slow answer is put down to, when several pauses overlap it.
CAUSES = ("checkpoint", "gc", "lag")
OUTSIDE = "nothing in the process"


@dataclass(frozen=True)
class Pause:
    kind: str
    start: float
    duration_s: float
    detail: str = ""

    @property
    def end(self) -> float:
        return self.start + self.duration_s


def read_trace(path: Path) -> list[Pause]:
    pauses = []
    for line in path.read_text().splitlines():
        kind, start, duration_ms, *detail = line.split(" ", 3)
        pauses.append(Pause(kind, float(start), float(duration_ms) / 1000, " ".join(detail).strip()))
    return pauses


def step_cpu_s(pause: Pause) -> float:
    """The CPU time the event loop's thread spent in a ``step`` (0 for a trace written before steps
    carried it): how long the step itself held the loop, whatever else the machine was doing."""
    words = pause.detail.split()
    if pause.kind == "step" and len(words) >= 3 and words[0] == "cpu" and words[2] == "ms":
        try:
            return float(words[1]) / 1000
        except ValueError:
            pass
    return 0.0


def overlapping(pauses: list[Pause], start: float, end: float) -> list[Pause]:
    return [p for p in pauses if p.start < end and p.end > start]


def cause(pauses: list[Pause]) -> str:
    kinds = {p.kind for p in pauses}
    return next((kind for kind in CAUSES if kind in kinds), OUTSIDE)


def explain(answered: list[tuple[float, float]], pauses: list[Pause], quantile: float = 0.99) -> list[str]:
    """Lines that say what each of the answers at or above the quantile overlapped, and the
    pauses of each kind over the whole phase."""
    if not answered:
        return []
    ordered = sorted(latency for _, latency in answered)
    cut = ordered[min(len(ordered) - 1, int(quantile * len(ordered)))]
    slow = [(created, latency) for created, latency in answered if latency >= cut]
    first, last = min(c for c, _ in answered), max(c + lag for c, lag in answered)
    during = overlapping(pauses, first, last)
    causes = Counter(cause(overlapping(pauses, created, created + latency)) for created, latency in slow)
    lines = [
        f"the {len(slow)} answers of {1000 * cut:.1f} ms or more overlapped: "
        + ", ".join(f"{kind} {causes[kind]}" for kind in (*CAUSES, OUTSIDE))
    ]
    for kind in CAUSES:
        mine = [p for p in during if p.kind == kind]
        if mine:
            longest = max(mine, key=lambda p: p.duration_s)
            lines.append(
                f"{kind}: {len(mine)} pauses of {THRESHOLD_MS[kind]:g} ms or more, {1000 * sum(p.duration_s for p in mine):.0f} ms "
                f"in all, the longest {1000 * longest.duration_s:.1f} ms {longest.detail}".rstrip()
            )
    return lines
