"""Rosters and campaigns as YAML, in and out; a campaign's house rules.

Import reads the whole file and checks everything (its shape, names, sides, each figure by the
ruleset, who may import what) inside the command's one transaction before it changes anything;
if anything is wrong it answers with every problem at once, each with its line, and changes
nothing. The format is described in ``docs/formats.md``; the rules for figures that already
exist are in :mod:`bot.app.roster_file`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app.base import BATTLES_BEFORE, AppBase
from bot.app.campaign_file import (
    CAMPAIGN_KEYS,
    FORMAT_KEY,
    HOUSE_RULES_TEXT,
    ROSTER_KEYS,
    VERSION,
    build_engine,
    campaign_name,
    changes,
    check_header,
    merged_tables,
    read_members,
    read_settings,
    roster_problems,
)
from bot.app.replies import Caller, Card, Refusal, Reply, joined, side_colour
from bot.app.roster_file import Importer, Kept, RosterPlan, read_sides, sides_data
from bot.app.switches import show, switches, tables_text, value_at
from bot.app.yaml_format import (
    MAX_FIGURES,
    FileProblems,
    dump,
    file_slug,
    plural,
    problems_reply,
    read,
)
from bot.dice import RecordingDice
from bot.render.cards import roll_line
from bot.store.schema import Campaign, DecisionRecord, Figure, Game, Member
from rules import RULESETS, get_engine
from rules.core import roster_entry, short

ALL = "all"
NAMES_SHOWN = 12
FIELD_MAX = 1024  # Discord's limit on one embed field's value


class ExchangeCommands(AppBase):
    # --- /roster export, /roster import ---------------------------------------------------------

    async def roster_export(self, caller: Caller, side: str | None = None) -> Reply:
        """The caller's side's roster as a file; the game master may name any side, or ``all``."""
        async with self.db.transaction() as s:
            campaign, member = await self._campaign_and_player(s, caller)
            engine = self._engine(campaign)
            is_gm = campaign.gm_id == caller.user_id
            wanted: list[str] | None
            if side is not None and side.strip().casefold() == ALL:
                if not is_gm:
                    raise Refusal("Only the game master may export every side's roster; /roster export gives yours.")
                wanted = None
            elif side is not None:
                wanted = [self._check_side(engine, side)]
                if not is_gm and wanted[0] != member.side:
                    raise Refusal(
                        f"You play {member.side or 'no side yet'}: only the game master may export {wanted[0]}'s roster."
                    )
            elif member.side is not None:
                wanted = [member.side]
            elif is_gm:
                wanted = None
            else:
                raise Refusal("Join a side first (/campaign join): /roster export gives your side's roster.")
            kept = await self._roster_kept(s, campaign, None)
        data = {
            FORMAT_KEY: "roster",
            "version": VERSION,
            "ruleset": campaign.ruleset,
            "campaign": campaign.name,
            "sides": sides_data(engine, kept, wanted, with_owner=False),
        }
        label = wanted[0] if wanted else ALL
        count = sum(len(v) for v in data["sides"].values())
        header = [
            f"Skirmish GM roster: {label} in {campaign.name} ({RULESETS[campaign.ruleset][1]}).",
            "Edit it and bring it back with /roster import; the format is in the README (YAML files).",
        ]
        filename = f"roster-{file_slug(campaign.name)}-{file_slug(label)}.yaml"
        card = Card(
            title="Roster exported",
            colour=side_colour(wanted[0] if wanted else None),
            description=f"{plural(count, roster_entry(engine))} of {label if wanted else 'every side'} in **{filename}**. "
            f"Edit it and bring it back with /roster import.",
        )
        return Reply(cards=[card], ephemeral=True, files=[(filename, dump(data, header))])

    async def roster_import(self, caller: Caller, filename: str, data: bytes) -> Reply:
        """Add the file's figures to the roster and update those it already has (see roster_file)."""
        try:
            doc = read(data)
            async with self._run_locked(caller), self.db.transaction() as s:
                campaign, member = await self._campaign_and_player(s, caller)
                engine = self._engine(campaign)
                problems: list[str] = []
                if check_header(doc, "roster", ROSTER_KEYS, campaign.ruleset, problems) is None:
                    raise FileProblems(problems)
                if doc.get("sides") is None:
                    problems.append(
                        doc.at(
                            (),
                            f"the file has no {roster_entry(engine)}s: list them under sides (sides: {{{list(engine.sides())[0]}: [...]}})",
                        )
                    )
                game = await self._game(s, campaign)
                rows = await self._roster_rows(s, campaign)
                kept = self._kept_of(rows, campaign, game)
                importer = Importer(caller.user_id, campaign.gm_id == caller.user_id, member.side)
                dice = RecordingDice(self._dice())
                plan = read_sides(doc, ("sides",), engine, importer, kept, dice, problems, limit=MAX_FIGURES)
                if problems:
                    raise FileProblems(problems)
                self._import_figures(s, campaign, rows, plan, importer)
        except FileProblems as exc:
            return problems_reply(exc, filename, "nothing was imported")
        return self._import_reply("Roster imported", caller, filename, plan, dice, roster_entry(engine))

    # --- /campaign export, /campaign import -----------------------------------------------------

    async def campaign_export(self, caller: Caller) -> Reply:
        """Everything a campaign keeps between battles: settings, house rules, members, every roster."""
        async with self.db.transaction() as s:
            campaign, _ = await self._campaign_and_player(s, caller)
            engine = self._engine(campaign)
            members = list(
                await s.scalars(
                    select(Member)
                    .where(Member.campaign_id == campaign.id, Member.role != "pending")
                    .order_by(Member.id)
                )
            )
            kept = await self._roster_kept(s, campaign, None)
            fought = await self._battles_fought(s, campaign)
        settings = {k: v for k, v in (campaign.settings or {}).items() if k != HOUSE_RULES_TEXT}
        if fought:
            settings[BATTLES_BEFORE] = fought
        data = {
            FORMAT_KEY: "campaign",
            "version": VERSION,
            "ruleset": campaign.ruleset,
            "name": campaign.name,
            "settings": settings,
            "house_rules": campaign.house_rules or None,
            "members": [{"user": m.user_id, "name": m.display_name, "role": m.role, "side": m.side} for m in members],
            "sides": sides_data(engine, kept, None, with_owner=True),
        }
        stamp = datetime.now(UTC).strftime("%Y-%m-%d")
        header = [
            f"Skirmish GM campaign: {campaign.name} ({RULESETS[campaign.ruleset][1]}), exported {stamp}.",
            "Bring it back with /campaign import (the game master; in a new channel it starts the campaign there).",
        ]
        filename = f"campaign-{file_slug(campaign.name)}-{stamp}.yaml"
        text = (
            f"**{filename}**: {plural(len(members), 'member')}, {plural(len(kept), roster_entry(engine))}"
            + (", house rules" if campaign.house_rules else "")
            + "."
        )
        return Reply(
            cards=[Card(title="Campaign exported", description=text)],
            ephemeral=True,
            files=[(filename, dump(data, header))],
        )

    async def campaign_import(self, caller: Caller, filename: str, data: bytes) -> Reply:
        """Restore a campaign file: into this channel's campaign (its game master, between battles), or
        as a new campaign where there is none (the caller becomes its game master)."""
        try:
            doc = read(data)
            async with self._run_locked(caller), self.db.transaction() as s:
                campaign = await self._campaign_here(s, caller)
                if campaign is None:  # as /campaign new: one active campaign a channel, whatever the guild says
                    other = await s.scalar(
                        select(Campaign).where(Campaign.channel_id == caller.channel_id, Campaign.active.is_(True))
                    )
                    if other is not None:
                        raise Refusal(
                            f"This channel already runs the campaign {short(other.name)}; end it first with /campaign end."
                        )
                if campaign is not None:
                    self._require_gm(campaign, caller, "import a campaign file here")
                    await s.refresh(campaign, with_for_update=True)
                    if await self._game(s, campaign) is not None:
                        raise Refusal("A game is in progress: import the campaign file after /game end.")
                problems: list[str] = []
                slug = check_header(doc, "campaign", CAMPAIGN_KEYS, campaign.ruleset if campaign else None, problems)
                name = campaign_name(doc, problems)
                if campaign is None and name is None and doc.get("name") is None:
                    problems.append(doc.at((), "a new campaign needs a name (name: The Peninsula)"))
                if slug is None:
                    raise FileProblems(problems)
                has_rules = isinstance(doc.data, dict) and "house_rules" in doc.data
                rules = doc.get("house_rules") if has_rules else (campaign.house_rules if campaign else None)
                engine = build_engine(doc.sub(("house_rules",)), slug, rules, problems)
                if engine is None:
                    raise FileProblems(problems)
                members = read_members(doc, engine, problems)
                settings = read_settings(doc, problems)
                existing = (
                    {m.user_id: m for m in await s.scalars(select(Member).where(Member.campaign_id == campaign.id))}
                    if campaign
                    else {}
                )
                rows = await self._roster_rows(s, campaign) if campaign else []
                kept = self._kept_of(rows, campaign, None) if campaign else []
                owners = (
                    {m.user_id for m in members}
                    | {u for u, m in existing.items() if m.role != "pending"}
                    | {caller.user_id}
                )
                importer = Importer(caller.user_id, True, None)
                dice = RecordingDice(self._dice())
                plan = read_sides(
                    doc, ("sides",), engine, importer, kept, dice, problems, owners=owners, limit=MAX_FIGURES
                )
                if has_rules and rules != (campaign.house_rules if campaign else None):
                    named = {e.kept.id for e in plan.new + plan.changed + plan.same if e.kept}
                    listed = {m.user_id for m in members if m.side_given}
                    problems += roster_problems(
                        engine,
                        [k for k in kept if k.id not in named],
                        [(m.display_name, m.side) for m in existing.values() if m.side and m.user_id not in listed],
                    )
                if problems:
                    raise FileProblems(problems)
                if campaign is None:
                    campaign = Campaign(
                        guild_id=caller.guild_id,
                        channel_id=caller.channel_id,
                        name=name or "Campaign",
                        ruleset=slug,
                        gm_id=caller.user_id,
                        active=True,
                        settings={},
                    )
                    s.add(campaign)
                    await s.flush()
                elif name is not None:
                    campaign.name = name
                kept_settings = dict(campaign.settings or {})
                text = kept_settings.pop(HOUSE_RULES_TEXT, None)
                if settings is not None:
                    kept_settings = dict(settings)
                if has_rules:
                    campaign.house_rules, text = rules or None, None
                if text and campaign.house_rules:
                    kept_settings[HOUSE_RULES_TEXT] = text  # the game master's own file, comments and all
                campaign.settings = kept_settings
                pending = {u for u, m in existing.items() if m.role == "pending"}
                notes = self._import_members(s, campaign, caller, members, existing)
                granted = [u for u in pending if existing[u].role != "pending"]
                if granted:  # their requests to join are answered by the file
                    await s.execute(
                        update(DecisionRecord)
                        .where(
                            DecisionRecord.campaign_id == campaign.id,
                            DecisionRecord.kind == "join",
                            DecisionRecord.status == "open",
                            DecisionRecord.user_id.in_(granted),
                        )
                        .values(status="cancelled")
                    )
                self._import_figures(s, campaign, rows, plan, importer)
        except FileProblems as exc:
            return problems_reply(exc, filename, "nothing was imported")
        reply = self._import_reply("Campaign imported", caller, filename, plan, dice, roster_entry(engine), always=True)
        card = reply.cards[0]
        card.description = (
            f"**{campaign.name}** ({RULESETS[campaign.ruleset][1]}), game master "
            f"{caller.display_name}.\n" + card.description
        )
        if notes:
            card.fields.append(("Members", "\n".join(notes), False))
        return reply

    # --- /campaign rules set, show, clear --------------------------------------------------------

    async def rules_set(self, caller: Caller, filename: str, data: bytes) -> Reply:
        """House rules from a YAML file laid over the ruleset's tables; checked by building the engine
        with them and by checking every figure and side the campaign holds against it."""
        try:
            doc = read(data)
            async with self._run_locked(caller), self.db.transaction() as s:
                campaign = await self._campaign(s, caller)
                self._require_gm(campaign, caller, "set house rules")
                await s.refresh(campaign, with_for_update=True)  # settings are shared with other commands
                if await self._game(s, campaign) is not None:
                    raise Refusal("House rules change between battles: set them after /game end.")
                rules = doc.data
                problems: list[str] = []
                engine = build_engine(doc, campaign.ruleset, rules, problems)
                if engine is None:
                    raise FileProblems(problems)
                kept = self._kept_of(await self._roster_rows(s, campaign), campaign, None)
                members = list(
                    await s.scalars(select(Member).where(Member.campaign_id == campaign.id, Member.side.is_not(None)))
                )
                problems += roster_problems(engine, kept, [(m.display_name, m.side) for m in members if m.side])
                if problems:
                    raise FileProblems(problems)
                settings = {k: v for k, v in (campaign.settings or {}).items() if k != HOUSE_RULES_TEXT}
                if rules:
                    settings[HOUSE_RULES_TEXT] = data.decode("utf-8-sig")
                campaign.house_rules = rules or None
                campaign.settings = settings
        except FileProblems as exc:
            return problems_reply(exc, filename, "the house rules were not changed")
        lines = changes(campaign.ruleset, campaign.house_rules)
        text = (
            f"{caller.display_name} set the house rules of **{campaign.name}** from {filename}:\n" + "\n".join(lines)
            if lines
            else f"{caller.display_name} cleared the house rules: {RULESETS[campaign.ruleset][1]} as published."
        )
        return Reply(cards=[Card(title="House rules set", description=text)])

    async def rules_show(self, caller: Caller, tables: bool = False) -> Reply:
        async with self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
        rules = campaign.house_rules or None
        title = RULESETS[campaign.ruleset][1]
        card = Card(title=f"House rules: {campaign.name}")
        lines = changes(campaign.ruleset, rules)
        card.description = "\n".join(lines) if lines else f"None: {title} as published."
        merged = merged_tables(campaign.ruleset, rules)
        offered = []
        for switch in switches(campaign.ruleset):
            now = value_at(merged, switch.path)
            value = _cut(show(now), 40)
            mark = "" if now == switch.default else f" (house rule; the rules say {_cut(show(switch.default), 30)})"
            offered.append(f"`{switch.name}`: **{value}**{mark}" + (f" — {switch.note}" if switch.note else ""))
        chunks = _chunks(offered, FIELD_MAX) or [["This ruleset has no switches; its tables can still be overridden."]]
        for n, chunk in enumerate(chunks, 1):
            part = f", {n} of {len(chunks)}" if len(chunks) > 1 else ""
            card.fields.append((f"Switches ({len(offered)}{part})", "\n".join(chunk), False))
        card.footer = (
            "The game master changes them with /campaign rules set file: (a YAML file of the keys to "
            "override); /campaign rules show tables:True attaches every table."
        )
        files = []
        if rules:
            text = (campaign.settings or {}).get(HOUSE_RULES_TEXT)
            body = text.encode("utf-8") if isinstance(text, str) else dump(rules, [f"House rules of {campaign.name}."])
            files.append((f"house-rules-{file_slug(campaign.name)}.yaml", body))
        if tables:
            files.append((f"tables-{campaign.ruleset}.yaml", tables_text(campaign.ruleset).encode("utf-8")))
        return Reply(cards=[card], ephemeral=True, files=files)

    async def rules_clear(self, caller: Caller) -> Reply:
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            self._require_gm(campaign, caller, "clear the house rules")
            await s.refresh(campaign, with_for_update=True)
            if await self._game(s, campaign) is not None:
                raise Refusal("House rules change between battles: clear them after /game end.")
            if not campaign.house_rules:
                raise Refusal("This campaign has no house rules to clear.")
            engine = get_engine(campaign.ruleset, None)
            kept = self._kept_of(await self._roster_rows(s, campaign), campaign, None)
            members = list(
                await s.scalars(select(Member).where(Member.campaign_id == campaign.id, Member.side.is_not(None)))
            )
            problems = roster_problems(engine, kept, [(m.display_name, m.side) for m in members if m.side])
            if problems:
                raise Refusal(
                    f"The published rules would refuse this campaign's rosters ({problems[0]}); change them first."
                )
            campaign.house_rules = None
            campaign.settings = {k: v for k, v in (campaign.settings or {}).items() if k != HOUSE_RULES_TEXT}
        return Reply(
            cards=[
                Card(
                    title="House rules cleared",
                    description=f"**{campaign.name}** plays {RULESETS[campaign.ruleset][1]} as published.",
                )
            ]
        )

    # --- shared -----------------------------------------------------------------------------------

    async def _roster_rows(self, s: AsyncSession, campaign: Campaign) -> list[Figure]:
        return list(await s.scalars(select(Figure).where(Figure.campaign_id == campaign.id).order_by(Figure.id)))

    def _kept_of(self, rows: Sequence[Figure], campaign: Campaign | None, game: Game | None) -> list[Kept]:
        playing = {n.casefold() for n in self._figure_names_in(campaign, game)} if campaign and game else set()
        return [
            Kept(
                f.id,
                f.name,
                f.side,
                f.kind,
                dict(f.stats or {}),
                f.status,
                list(f.history or []),
                f.owner_id,
                f.name.casefold() in playing,
            )
            for f in rows
        ]

    async def _roster_kept(self, s: AsyncSession, campaign: Campaign, game: Game | None) -> list[Kept]:
        return self._kept_of(await self._roster_rows(s, campaign), campaign, game)

    @staticmethod
    def _import_figures(
        s: AsyncSession, campaign: Campaign, rows: Sequence[Figure], plan: RosterPlan, importer: Importer
    ) -> None:
        by_id = {f.id: f for f in rows}
        for entry in plan.new:
            s.add(
                Figure(
                    campaign_id=campaign.id,
                    owner_id=entry.final_owner(importer),
                    name=entry.name,
                    side=entry.side,
                    kind=entry.kind,
                    stats=dict(entry.stats),
                    status=entry.final_status(),
                    history=entry.final_history(),
                )
            )
        for entry in plan.changed:
            assert entry.kept is not None
            row = by_id[entry.kept.id]
            row.kind, row.stats = entry.kind, dict(entry.stats)
            row.status, row.history = entry.final_status(), entry.final_history()
            row.owner_id = entry.final_owner(importer)

    @staticmethod
    def _import_members(
        s: AsyncSession, campaign: Campaign, caller: Caller, members: Sequence[Any], existing: dict[int, Member]
    ) -> list[str]:
        """Members of the file join as players with their sides; the importer is the game master."""
        notes: list[str] = []
        me = existing.get(caller.user_id)
        if me is None:
            me = Member(
                campaign_id=campaign.id,
                user_id=caller.user_id,
                display_name=caller.display_name[:100],
                role="gm",
                side=None,
            )
            s.add(me)
            existing[caller.user_id] = me
        me.role = "gm"
        for entry in members:
            member = existing.get(entry.user_id)
            if member is None:
                member = Member(
                    campaign_id=campaign.id,
                    user_id=entry.user_id,
                    display_name=(entry.name or f"user {entry.user_id}")[:100],
                    role="player",
                    side=None,
                )
                s.add(member)
                existing[entry.user_id] = member
                notes.append(f"{member.display_name} joins" + (f" on {entry.side}" if entry.side else ""))
            elif member.role == "pending":
                member.role = "player"
                notes.append(f"{member.display_name}'s request to join is granted")
            if entry.side_given and member.side != entry.side:
                member.side = entry.side
                if member is not me and not any(n.startswith(member.display_name) for n in notes):
                    notes.append(f"{member.display_name} plays {entry.side or 'no side'}")
            if entry.role == "gm" and entry.user_id != caller.user_id:
                notes.append(f"{member.display_name} was the game master in the file; {caller.display_name} is here")
        return notes

    @staticmethod
    def _import_reply(
        title: str,
        caller: Caller,
        filename: str,
        plan: RosterPlan,
        dice: RecordingDice,
        entry: str = "figure",
        always: bool = False,
    ) -> Reply:
        parts = []
        if plan.new:
            parts.append(f"{len(plan.new)} added ({_names(plan.new)})")
        if plan.changed:
            parts.append(f"{len(plan.changed)} changed ({_names(plan.changed)})")
        if plan.same:
            parts.append(f"{len(plan.same)} unchanged")
        summary = "; ".join(parts) if parts else f"no {entry}s"
        text = f"{caller.display_name} imported {filename}: {summary}."
        card = Card(title=title, description=text)
        if dice.rolled:
            card.fields.append(("Dice", "\n".join(roll_line(r) for r in dice.rolled), False))
        quiet = not plan.new and not plan.changed and not always
        if quiet:
            card.title = "Nothing to change"
        return Reply(cards=[card], ephemeral=quiet, events=list(plan.events), rolls=list(dice.rolled))


def _names(entries: Sequence[Any]) -> str:
    names = [e.name for e in entries[:NAMES_SHOWN]]
    more = len(entries) - len(names)
    return joined(names) + (f" and {more} more" if more > 0 else "")


def _chunks(lines: Sequence[str], limit: int) -> list[list[str]]:
    """Whole lines grouped so that each group, joined, fits ``limit`` characters."""
    groups: list[list[str]] = []
    size = limit + 1
    for line in lines:
        line = _cut(line, limit)
        if size + 1 + len(line) > limit:
            groups.append([])
            size = -1
        groups[-1].append(line)
        size += 1 + len(line)
    return groups


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
