"""What a run of self-played battles came to, as the CLI and the benchmark print it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.selfplay.battle import Outcome, replay_text


@dataclass(frozen=True)
class Figures:
    battles: int
    failures: int
    bounded: int
    seconds: float
    actions: int
    slowest: tuple[float, str, str]
    #: Problems of the invariants allowed for the run, by invariant.
    allowed: dict[str, int]

    @property
    def per_second(self) -> float:
        return self.battles / self.seconds if self.seconds else 0.0

    @property
    def per_battle(self) -> float:
        return self.actions / self.battles if self.battles else 0.0


def figures(outcomes: Sequence[Outcome], seconds: float) -> Figures:
    slowest = max(((o.slowest[0], o.slowest[1], f"{o.ruleset} seed {o.seed}") for o in outcomes), default=(0.0, "", ""))
    return Figures(
        battles=len(outcomes),
        failures=sum(1 for o in outcomes if o.failure),
        bounded=sum(1 for o in outcomes if o.bounded and not o.failure),
        seconds=seconds,
        actions=sum(o.actions for o in outcomes),
        slowest=slowest,
        allowed=allowed_counts(outcomes),
    )


def allowed_counts(outcomes: Sequence[Outcome]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for o in outcomes:
        for note in o.allowed:
            key = note.split(":", 1)[0]
            counts[key] = counts.get(key, 0) + 1
    return counts


def figures_text(title: str, f: Figures) -> str:
    seconds, line, where = f.slowest
    allowed = "".join(f" · allowed {key} problems {n}" for key, n in sorted(f.allowed.items()))
    return (
        f"{title}: {f.battles} battles in {f.seconds:.1f} s · failures {f.failures} · "
        f"reached the action bound {f.bounded} · {f.per_second:.2f} battles/s · "
        f"{f.per_battle:.0f} actions/battle · slowest action {seconds * 1000:.0f} ms ({line!r}, {where})" + allowed
    )


def outcome_line(o: Outcome) -> str:
    result = f"FAILED: {o.failure}" if o.failure else o.ended
    return f"{o.ruleset} seed {o.seed} on {o.where}: {o.actions} lines, {o.seconds:.1f} s, {result}"


def save_failure(o: Outcome, folder: Path) -> Path:
    """The failed battle's replay file: its seed, the command that replays it, the lines."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{o.ruleset}-seed-{o.seed}.txt"
    path.write_text(replay_text(o, folder), encoding="utf-8")
    return path
