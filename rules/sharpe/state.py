"""What a Sharpe game remembers (RULES-NOTES.md 2.5), as plain dataclasses that round-trip through JSON.

Per-bound facts are kept as the number of the bound they happened in (``shot_bound == bound``
means "has shot this bound"), so nothing needs clearing when a bound ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.battlefield import FieldState
from rules.contract import Waiting


@dataclass
class Firearm:
    weapon: str
    loaded: bool = True
    #: Clean bounds still needed before it can fire again (A-SHARPE-14); a misfire needs re-priming.
    reload_left: int = 0
    fired_bound: int = 0
    repriming: bool = False
    #: Loaded by tapping the butt: fires sooner but no better than a musket.
    tap: bool = False
    picked_up_bound: int = 0


@dataclass
class Wound:
    location: str  # legs, abdomen, left_arm, right_arm, chest, head
    severity: str  # light or serious
    bound: int
    by: str


@dataclass
class Horse:
    pace: str = "halt"
    #: The pace at the start of this bound: a horse changes pace one step per bound.
    start_pace: str = "halt"
    wounds: list[Wound] = field(default_factory=list)
    #: "" (under control), "shaken" (rider hit for no effect: parries only) or "wounded" (no defence).
    lost_control: str = ""
    lamed: bool = False
    dead: bool = False
    #: Riderless on the map, a figure of its own (A-SHARPE-43).
    loose: bool = False
    #: The bound it last moved in, ridden or running on (A-SHARPE-42).
    ran_bound: int = 0


@dataclass
class Character:
    name: str
    side: str
    kind: str
    I: int  # noqa: E741  (the rules' Initiative, spelled as saved states and rosters spell it)
    D: int
    S: int
    C: int
    F: int
    weapons: list[str] = field(default_factory=list)
    firearms: list[Firearm] = field(default_factory=list)
    in_hand: str | None = None
    #: Ability points spent this bound (checks, attacks, parries…), restored when a bound begins.
    spent: dict[str, int] = field(default_factory=lambda: {"I": 0, "D": 0, "S": 0, "C": 0})
    wounds: list[Wound] = field(default_factory=list)
    out: bool = False
    out_how: str = ""
    unconscious: bool = False
    knocked_out: int = 0
    knocked_out_bound: int = 0
    passout_rolls: bool = False
    down: str = ""  # "", "fallen" or "knocked_down"
    rose_bound: int = 0
    rise_try_bound: int = 0
    control_bound: int = 0
    crawl_only: bool = False
    no_move_bound: int = 0
    suppressed_bound: int = 0
    wounded_bound: int = 0
    moved_bound: int = 0
    moved: float = 0.0
    pace: str = ""
    contact_bound: int = 0
    shot_bound: int = 0
    attacked_bound: int = 0
    fought_bound: int = 0
    parried_bound: int = 0
    dodged_bound: int = 0
    busy_bound: int = 0
    halted_bound: int = 0
    murdered_bound: int = 0
    loading_gun: str = ""
    loading_bound: int = 0
    picked_up: dict[str, int] = field(default_factory=dict)
    mounted: bool = False
    horse: Horse | None = None
    start_I: int = 0


@dataclass
class Gun:
    name: str
    side: str
    F: int
    weapon: str = "artillery"
    loaded: bool = True
    man_bounds: int = 0
    reprime_left: int = 0
    fired_bound: int = 0
    loaders: list[str] = field(default_factory=list)
    loaders_bound: int = 0
    #: On the bot's map: the bound it was last hauled (it fires the next bound at the earliest, A-SHARPE-49).
    hauled_bound: int = 0


@dataclass
class Contact:
    a: str
    b: str
    since: int
    #: A drawn exchange: both stay and fight again next bound (A-SHARPE-22).
    locked: bool = False


@dataclass
class Dropped:
    weapon: str
    by: str
    bound: int
    loaded: bool = False
    reload_left: int = 0


@dataclass
class Attack:
    """One melee attack, from declaration to its last choice."""

    attacker: str
    defender: str
    from_side: str = "front"
    weapon: str = ""  # "" = bare hands
    blow: str = ""
    uphill: str = "none"
    obstacle: str = "none"
    no_room: bool = False
    follow_up: bool = False
    capture: bool = False
    silent: bool = False
    at_horse: bool = False
    ride_over: bool = False
    bad_going: bool = False
    perch_ft: float = 0.0
    left_hand: bool = False
    bonus: int = 0
    bonus_why: str = ""
    turned: bool = False
    not_heard: bool = False
    tried: list[str] = field(default_factory=list)
    stage: str = "defence"  # defence, ride_over, horse_defence


@dataclass
class SharpeState:
    bound: int
    order: list[str]
    characters: list[Character]
    active: str | None = None
    acted: list[str] = field(default_factory=list)
    guns: list[Gun] = field(default_factory=list)
    contacts: list[Contact] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    objects: dict[str, int] = field(default_factory=dict)
    weather: str = "clear"
    night: bool = False
    broken: list[str] = field(default_factory=list)
    morale_done: list[str] = field(default_factory=list)
    #: A defender's choice while it waits (rules/sharpe/decisions.py makes it and reads it back).
    pending: Waiting | None = None
    next_id: int = 1
    over: bool = False
    winner: str | None = None
    ended_how: str = ""
    #: The man whose turn just ended by itself (a wound, a halt) with the turn passing to a comrade
    #: who has not acted yet: a bare ``done`` then is taken as meant for him, and ends nobody's turn.
    ended_itself: str = ""
    #: The bot's map and where each character stands and faces (None: played on a table).
    field: FieldState | None = None
