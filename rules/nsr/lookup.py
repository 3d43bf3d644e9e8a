"""Reading the charts: one method per chart, each returning the cell a rule needs."""

from __future__ import annotations

import math
from fractions import Fraction

from rules.nsr.charts import COLUMNS, Morale, NsrTables, fraction

COLUMN_LABELS = ("1", "2-5", "6")


class Charts:
    def __init__(self, tables: NsrTables) -> None:
        self.t = tables
        self.firing: dict[str, dict[str, list[Fraction]]] = {}
        for name, row in tables.firing_chart.items():
            if row.use is None:
                self.firing[name] = {k: [fraction(c) for c in cells] for k, cells in row.hits.items()}
        if tables.options.smoothed_firing_rows:
            for name, rows in tables.smoothed_firing_rows.items():
                for klass, cells in rows.items():
                    self.firing[name][klass] = [fraction(c) for c in cells]

    # --- movement

    def movement_dice(self, troop: str, formation: str, column: str) -> int | None:
        """Dice for a troop type in a formation on a column (cross_country, road, charge, road_charge)."""
        row = self.t.movement_dice[troop].get(formation)
        if row is None:
            return None
        return row[COLUMNS.index(column)]

    # --- fire

    def column(self, die: int) -> int:
        """The firing chart column a (modified) die reads: 0 for "1", 1 for "2-5", 2 for "6" (and 7+, A-NSR-5)."""
        low, high = self.t.die_columns
        return 0 if die <= low else 1 if die <= high else 2

    def fire_row(self, weapon: str) -> tuple[str, int]:
        """The row whose fractions a weapon reads, and how many times its hits count (grapeshot x2)."""
        row = self.t.firing_chart[weapon]
        return (row.use or weapon), row.multiply

    def fraction(self, weapon: str, klass: str, die: int) -> Fraction:
        base, _ = self.fire_row(weapon)
        return self.firing[base][klass][self.column(die)]

    def round_hits(self, value: Fraction) -> int:
        if self.t.hits_rounding == "up":
            return math.ceil(value)
        if self.t.hits_rounding == "nearest":
            return math.floor(value + Fraction(1, 2))
        return math.floor(value)

    def artillery_figures(self, crew: int) -> int:
        """What a gun counts as: 12 figures with a crew of 4+, 9 with 3, 6 with 2."""
        table = self.t.artillery_equivalent
        usable = [c for c in table if c <= crew]
        return table[max(usable)] if usable else 0

    # --- close combat

    def charge_type(self, troop: str) -> str:
        return troop if troop in self.t.close_into_combat else self.t.charge_test_type[troop]

    def close_in_max(self, troop: str, test: str, with_leader: bool) -> int:
        row = self.t.close_into_combat[self.charge_type(troop)]
        values = row.close if test == "close" else row.stand
        return values[0 if with_leader else 1]

    def cc_modifier(self, name: str, troop: str) -> int:
        column = self.t.close_combat_columns.index(self.t.close_combat_column_of[troop])
        return self.t.close_combat_modifiers[name][column]

    # --- morale

    def morale(self, troop: str, attached_troop: str | None = None) -> Morale:
        """A-NSR-27: a command group uses its attached unit's numbers; unlisted types use morale_type_of."""
        if troop not in self.t.morale_numbers and attached_troop in self.t.morale_numbers:
            return self.t.morale_numbers[attached_troop]
        return self.t.morale_numbers.get(troop) or self.t.morale_numbers[self.t.morale_type_of[troop]]

    # --- towns

    def breach_needed(self, row: str, part: str) -> int:
        return self.t.breach[row][self.t.breach_parts.index(part)]
