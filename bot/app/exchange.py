"""Rosters and campaigns as YAML, in and out; a campaign's house rules.

Import reads the whole file and checks everything (its shape, names, sides, each figure by the
ruleset, who may import what) inside the command's one transaction before it changes anything;
if anything is wrong it answers with every problem at once, each with its line, and changes
nothing. The format is described in ``docs/formats.md``; the rules for figures that already
exist are in :mod:`bot.app.roster_file`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.app.access import (
    BATTLES_BEFORE,
    battles_fought,
    campaign_and_player,
    campaign_here,
    campaign_of,
    check_side,
    engine_of,
    figure_names_in,
    require_gm,
)
from bot.app.battle_dice import dice_document
from bot.app.campaign_file import (
    CAMPAIGN_KEYS,
    FORMAT_KEY,
    HOUSE_RULES_TEXT,
    ROSTER_KEYS,
    VERSION,
    MemberEntry,
    build_engine,
    campaign_name,
    changes,
    check_header,
    merged_tables,
    read_members,
    read_settings,
    roster_problems,
    setting_changes,
)
from bot.app.context import Context
from bot.app.free_roll_dice import revealed_documents
from bot.app.replies import Caller, Card, Refusal, Reply, joined
from bot.app.roster_file import Importer, Kept, RosterPlan, read_sides, sides_data
from bot.app.sole_choice import ASK_NOTE, ASK_SWITCH, asks_always
from bot.app.switches import show, switches, tables_text, value_at
from bot.app.undo import GM_PLAYS
from bot.app.yaml_format import (
    MAX_FIGURES,
    FileProblems,
    FileRefused,
    dump,
    file_slug,
    plural,
    read,
)
from bot.dice import RecordingDice
from bot.render.cards import roll_line
from bot.render.shown import shown, side_colour
from bot.store import Unit
from bot.store.exchange import NewFigure
from bot.store.records import Campaign, Figure, Game, Member
from rules import RULESETS, get_engine
from rules.core import short

ALL = "all"
NAMES_SHOWN = 12
FIELD_MAX = 1024  # Discord's limit on one embed field's value


class ExchangeCommands:
    """Rosters and campaigns as files, in and out, and a campaign's house rules."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # --- /roster export, /roster import ---------------------------------------------------------

    async def roster_export(self, caller: Caller, side: str | None = None) -> Reply:
        """The caller's side's roster as a file; the game master may name any side, or ``all``."""
        async with self.ctx.store.transaction() as u:
            campaign, member = await campaign_and_player(u, caller)
            engine = engine_of(campaign)
            is_gm = campaign.gm_id == caller.user_id
            wanted: list[str] | None
            if side is not None and side.strip().casefold() == ALL:
                if not is_gm:
                    raise Refusal("Only the game master may export every side's roster; /roster export gives yours.")
                wanted = None
            elif side is not None:
                wanted = [check_side(engine, side)]
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
            kept = self._kept_of(await u.figures.all(campaign.id), campaign, None)
        sides = sides_data(engine, kept, wanted, with_owner=False)
        data = {
            FORMAT_KEY: "roster",
            "version": VERSION,
            "ruleset": campaign.ruleset,
            "campaign": campaign.name,
            "sides": sides,
        }
        label = wanted[0] if wanted else ALL
        count = sum(len(v) for v in sides.values())
        header = [
            f"Skirmish GM roster: {label} in {campaign.name} ({RULESETS[campaign.ruleset][1]}).",
            "Edit it and bring it back with /roster import; the format is in docs/formats.md.",
        ]
        filename = f"roster-{file_slug(campaign.name)}-{file_slug(label)}.yaml"
        card = Card(
            title="Roster exported",
            colour=side_colour(wanted[0] if wanted else None),
            description=f"{plural(count, engine.roster_entry)} of {label if wanted else 'every side'} in **{filename}**. "
            f"Edit it and bring it back with /roster import.",
        )
        return Reply(cards=[card], ephemeral=True, files=[(filename, dump(data, header))])

    async def roster_import(self, caller: Caller, filename: str, data: bytes) -> Reply:
        """Add the file's figures to the roster and update those it already has (see roster_file)."""
        try:
            doc = read(data)
            async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
                campaign, member = await campaign_and_player(u, caller)
                engine = engine_of(campaign)
                problems: list[str] = []
                if check_header(doc, "roster", ROSTER_KEYS, campaign.ruleset, problems) is None:
                    raise FileProblems(problems)
                if doc.get("sides") is None:
                    problems.append(
                        doc.at(
                            (),
                            f"the file has no {engine.roster_entry}s: list them under sides (sides: {{{next(iter(engine.sides()))}: [...]}})",
                        )
                    )
                game = await u.games.in_progress(campaign.id)
                rows = await u.figures.all(campaign.id)
                kept = self._kept_of(rows, campaign, game)
                importer = Importer(caller.user_id, campaign.gm_id == caller.user_id, member.side)
                dice = RecordingDice(self.ctx.dice())
                plan = read_sides(doc, ("sides",), engine, importer, kept, dice, problems, limit=MAX_FIGURES)
                if problems:
                    raise FileProblems(problems)
                await _import_figures(u, campaign, rows, plan, importer)
        except FileProblems as exc:
            raise FileRefused(exc, filename, "nothing was imported") from exc
        return _import_reply("Roster imported", caller, filename, plan, dice, engine.roster_entry)

    # --- /campaign export, /campaign import -----------------------------------------------------

    async def campaign_export(self, caller: Caller) -> Reply:
        """Everything a campaign keeps between battles: settings, house rules, members, every roster."""
        async with self.ctx.store.transaction() as u:
            campaign, _ = await campaign_and_player(u, caller)
            engine = engine_of(campaign)
            members = [m for m in await u.members.all(campaign.id) if m.role != "pending"]
            kept = self._kept_of(await u.figures.all(campaign.id), campaign, None)
            fought = await battles_fought(u, campaign)
            dice = await self._dice_documents(u, campaign)
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
        if dice:
            data["dice"] = dice
        stamp = self.ctx.clock().strftime("%Y-%m-%d")
        header = [
            f"Skirmish GM campaign: {campaign.name} ({RULESETS[campaign.ruleset][1]}), exported {stamp}.",
            "Bring it back with /campaign import (the game master; in a new channel it starts the campaign there).",
        ]
        filename = f"campaign-{file_slug(campaign.name)}-{stamp}.yaml"
        text = (
            f"**{filename}**: {plural(len(members), 'member')}, {plural(len(kept), engine.roster_entry)}"
            + (", house rules" if campaign.house_rules else "")
            + "."
        )
        return Reply(
            cards=[Card(title="Campaign exported", description=text)],
            ephemeral=True,
            files=[(filename, dump(data, header))],
        )

    @staticmethod
    async def _dice_documents(u: Unit, campaign: Campaign) -> list[dict[str, Any]]:
        """Every finished battle's dice and every revealed stream of free rolls, for ``skirmish-gm
        verify``; a battle in progress keeps its secret and is left out."""
        documents = []
        for number in sorted(await u.games.numbers(campaign.id)):
            game = await u.games.numbered(campaign.id, number)
            if game is None or game.status == "active" or game.dice_commitment is None:
                continue
            rolled = [die for entry in await u.log.entries(game.id, with_rolls=True) for die in entry.rolls]
            documents.append(dice_document(game, rolled, revealed=True))
        return documents + await revealed_documents(u, campaign)

    async def campaign_import(self, caller: Caller, filename: str, data: bytes) -> Reply:
        """Restore a campaign file: into this channel's campaign (its game master, between battles), or
        as a new campaign where there is none (the caller becomes its game master)."""
        try:
            doc = read(data)
            async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
                campaign = await campaign_here(u, caller)
                if campaign is None:  # as /campaign new: one active campaign a channel, whatever the guild says
                    other = await u.campaigns.active_in_channel(caller.channel_id)
                    if other is not None:
                        raise Refusal(
                            f"This channel already runs the campaign {short(other.name)}; end it first with /campaign end."
                        )
                if campaign is not None:
                    require_gm(campaign, caller, "import a campaign file here")
                    campaign = await u.campaigns.get(campaign.id, lock=True)
                    if await u.games.in_progress(campaign.id) is not None:
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
                settings = read_settings(doc, problems, engine)
                existing = {m.user_id: m for m in await u.members.all(campaign.id)} if campaign else {}
                rows = await u.figures.all(campaign.id) if campaign else []
                kept = self._kept_of(rows, campaign, None) if campaign else []
                owners = (
                    {m.user_id for m in members}
                    | {user for user, m in existing.items() if m.role != "pending"}
                    | {caller.user_id}
                )
                importer = Importer(caller.user_id, True, None)
                dice = RecordingDice(self.ctx.dice())
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
                kept_settings, house_rules = _settings_after(campaign, settings, has_rules, rules)
                settings_changed = setting_changes(
                    campaign.settings if campaign else {}, kept_settings, skipped=(HOUSE_RULES_TEXT,)
                )
                if campaign is None:
                    campaign = await u.campaigns.create(
                        guild_id=caller.guild_id,
                        channel_id=caller.channel_id,
                        name=name or "Campaign",
                        ruleset=slug,
                        gm_id=caller.user_id,
                        settings=kept_settings,
                        house_rules=house_rules,
                    )
                else:
                    if name is not None:
                        await u.campaigns.rename(campaign.id, name)
                    await u.campaigns.set_settings(campaign.id, kept_settings)
                    if has_rules:
                        await u.campaigns.set_house_rules(campaign.id, house_rules)
                    campaign = replace(
                        campaign, name=name or campaign.name, settings=kept_settings, house_rules=house_rules
                    )
                pending = [user for user, m in existing.items() if m.role == "pending"]
                notes = await _import_members(u, campaign, caller, members, existing)
                # Their requests to join are answered by the file.
                await u.exchange.cancel_join_requests(
                    campaign.id, [user for user in pending if existing[user].role != "pending"]
                )
                await _import_figures(u, campaign, rows, plan, importer)
        except FileProblems as exc:
            raise FileRefused(exc, filename, "nothing was imported") from exc
        reply = _import_reply("Campaign imported", caller, filename, plan, dice, engine.roster_entry, always=True)
        card = reply.cards[0]
        card.description = (
            f"**{shown(campaign.name)}** ({RULESETS[campaign.ruleset][1]}), game master "
            f"{shown(caller.display_name)}.\n" + card.description
        )
        card.fields.append(("Settings", shown("\n".join(settings_changed)) if settings_changed else "unchanged", False))
        if notes:
            card.fields.append(("Members", shown("\n".join(notes)), False))
        return reply

    # --- /campaign rules set, show, clear --------------------------------------------------------

    async def rules_set(self, caller: Caller, filename: str, data: bytes) -> Reply:
        """House rules from a YAML file laid over the ruleset's tables; checked by building the engine
        with them and by checking every figure and side the campaign holds against it."""
        try:
            doc = read(data)
            async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
                campaign = await campaign_of(u, caller)
                require_gm(campaign, caller, "set house rules")
                campaign = await u.campaigns.get(campaign.id, lock=True)  # settings are shared with other commands
                if await u.games.in_progress(campaign.id) is not None:
                    raise Refusal("House rules change between battles: set them after /game end.")
                rules = doc.data
                problems: list[str] = []
                ask = None
                if isinstance(rules, dict) and ASK_SWITCH in rules:  # the bot's own switch: the engine never sees it
                    rules = {k: v for k, v in rules.items() if k != ASK_SWITCH}
                    ask = doc.data[ASK_SWITCH]
                    if not isinstance(ask, bool):
                        problems.append(f"{ASK_SWITCH}: must be yes or no, not {short(str(ask))}.")
                engine = build_engine(doc, campaign.ruleset, rules, problems)
                if engine is None:
                    raise FileProblems(problems)
                kept = self._kept_of(await u.figures.all(campaign.id), campaign, None)
                problems += roster_problems(engine, kept, await _member_sides(u, campaign))
                if problems:
                    raise FileProblems(problems)
                settings = {
                    k: v for k, v in (campaign.settings or {}).items() if k not in (HOUSE_RULES_TEXT, ASK_SWITCH)
                }
                if ask:
                    settings[ASK_SWITCH] = True
                if rules or ask is not None:
                    settings[HOUSE_RULES_TEXT] = data.decode("utf-8-sig")
                await u.campaigns.set_house_rules(campaign.id, rules or None)
                await u.campaigns.set_settings(campaign.id, settings)
                campaign = replace(campaign, house_rules=rules or None, settings=settings)
        except FileProblems as exc:
            raise FileRefused(exc, filename, "the house rules were not changed") from exc
        lines = changes(campaign.ruleset, campaign.house_rules)
        if asks_always(campaign.settings):
            lines.append(f"{ASK_SWITCH}: yes (a choice with one legal answer is still asked)")
        text = (
            f"{shown(caller.display_name)} set the house rules of **{shown(campaign.name)}** from {shown(filename)}:\n"
            + "\n".join(lines)
            if lines
            else f"{shown(caller.display_name)} cleared the house rules: {RULESETS[campaign.ruleset][1]} as published."
        )
        return Reply(cards=[Card(title="House rules set", description=text)])

    async def rules_show(self, caller: Caller, tables: bool = False) -> Reply:
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
        rules = campaign.house_rules or None
        title = RULESETS[campaign.ruleset][1]
        card = Card(title=f"House rules: {shown(campaign.name)}")
        lines = changes(campaign.ruleset, rules)
        card.description = "\n".join(lines) if lines else f"None: {title} as published."
        merged = merged_tables(campaign.ruleset, rules)
        offered = []
        for switch in switches(campaign.ruleset):
            now = value_at(merged, switch.path)
            value = _cut(show(now), 40)
            mark = "" if now == switch.default else f" (house rule; the rules say {_cut(show(switch.default), 30)})"
            offered.append(f"`{switch.name}`: **{value}**{mark}" + (f" — {switch.note}" if switch.note else ""))
        ask = asks_always(campaign.settings)
        offered.append(f"`{ASK_SWITCH}`: **{show(ask)}**{' (house rule)' if ask else ''} — {ASK_NOTE}")
        chunks = _chunks(offered, FIELD_MAX)
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
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            require_gm(campaign, caller, "clear the house rules")
            campaign = await u.campaigns.get(campaign.id, lock=True)
            if await u.games.in_progress(campaign.id) is not None:
                raise Refusal("House rules change between battles: clear them after /game end.")
            if not campaign.house_rules and not asks_always(campaign.settings):
                raise Refusal("This campaign has no house rules to clear.")
            engine = get_engine(campaign.ruleset, None)
            kept = self._kept_of(await u.figures.all(campaign.id), campaign, None)
            problems = roster_problems(engine, kept, await _member_sides(u, campaign))
            if problems:
                raise Refusal(
                    f"The published rules would refuse this campaign's rosters ({problems[0]}); change them first."
                )
            await u.campaigns.set_house_rules(campaign.id, None)
            await u.campaigns.set_settings(
                campaign.id,
                {k: v for k, v in (campaign.settings or {}).items() if k not in (HOUSE_RULES_TEXT, ASK_SWITCH)},
            )
        return Reply(
            cards=[
                Card(
                    title="House rules cleared",
                    description=f"**{shown(campaign.name)}** plays {RULESETS[campaign.ruleset][1]} as published.",
                )
            ]
        )

    # --- shared -----------------------------------------------------------------------------------

    def _kept_of(self, rows: Sequence[Figure], campaign: Campaign, game: Game | None) -> list[Kept]:
        """The roster as the file readers see it: which figures fight in ``game`` marked."""
        playing = {n.casefold() for n in figure_names_in(self.ctx.states, campaign, game)} if game else set()
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


def _settings_after(
    campaign: Campaign | None, settings: dict[str, Any] | None, has_rules: bool, rules: Any
) -> tuple[dict[str, Any], Any]:
    """A campaign's settings and house rules once a file is imported. Each setting the file names
    replaces the campaign's, one written as null is removed, and one the file omits keeps its
    value (as a player expects: a file of only ``battles_before`` does not move a map campaign
    to a table); a new campaign with no battlefield written plays on a table, as one from before
    the map did. The file's house rules (if it has the key) replace the campaign's.
    The game master's own house-rules file (comments and all) is kept only while the rules it
    wrote stay."""
    kept_settings = dict(campaign.settings or {}) if campaign else {}
    text = kept_settings.pop(HOUSE_RULES_TEXT, None)
    for key, value in (settings or {}).items():
        if value is None:
            kept_settings.pop(key, None)
        else:
            kept_settings[key] = value
    house_rules = campaign.house_rules if campaign else None
    if has_rules:
        house_rules, text = rules or None, None
    if text and house_rules:
        kept_settings[HOUSE_RULES_TEXT] = text
    return kept_settings, house_rules


async def _member_sides(u: Unit, campaign: Campaign) -> list[tuple[str, str]]:
    """Who plays which side: the sides new rules must still have."""
    return [(m.display_name, m.side) for m in await u.members.all(campaign.id) if m.side]


async def _import_figures(
    u: Unit, campaign: Campaign, rows: Sequence[Figure], plan: RosterPlan, importer: Importer
) -> None:
    by_id = {f.id: f for f in rows}
    changed = []
    for entry in plan.changed:
        assert entry.kept is not None
        changed.append(
            replace(
                by_id[entry.kept.id],
                kind=entry.kind,
                stats=dict(entry.stats),
                status=entry.final_status(),
                history=entry.final_history(),
                owner_id=entry.final_owner(importer),
            )
        )
    await u.exchange.save_figures(changed)
    await u.exchange.add_figures(
        campaign.id,
        [
            NewFigure(
                owner_id=entry.final_owner(importer),
                name=entry.name,
                side=entry.side,
                kind=entry.kind,
                stats=dict(entry.stats),
                status=entry.final_status(),
                history=entry.final_history(),
            )
            for entry in plan.new
        ],
    )


async def _import_members(
    u: Unit, campaign: Campaign, caller: Caller, members: Sequence[MemberEntry], existing: dict[int, Member]
) -> list[str]:
    """Members of the file join as players with their sides; the importer is the game master (a side
    the file or the campaign gives her is said: her undo is then a player's). ``existing`` (by user
    id) is brought up to date with what was written."""
    notes: list[str] = []
    me = existing.get(caller.user_id)
    if me is None:
        me = await u.members.add(campaign.id, caller.user_id, caller.display_name, "gm")
    elif me.role != "gm":
        me = await u.members.set(me, side=me.side, role="gm")
    existing[caller.user_id] = me
    for entry in members:
        member = existing.get(entry.user_id)
        side = entry.side if entry.side_given else (member.side if member else None)
        if member is None:
            name = entry.name or f"user {entry.user_id}"
            member = await u.members.add(campaign.id, entry.user_id, name, "player", side)
            notes.append(f"{member.display_name} joins" + (f" on {entry.side}" if entry.side else ""))
        else:
            role = member.role
            if role == "pending":
                role = "player"
                notes.append(f"{member.display_name}'s request to join is granted")
            told = any(n.startswith(member.display_name) for n in notes)
            if side != member.side and member.user_id != caller.user_id and not told:
                notes.append(f"{member.display_name} plays {entry.side or 'no side'}")
            if (role, side) != (member.role, member.side):
                member = await u.members.set(member, side=side, role=role)
        existing[entry.user_id] = member
        if entry.role == "gm" and entry.user_id != caller.user_id:
            notes.append(f"{member.display_name} was the game master in the file; {caller.display_name} is here")
    me = existing[caller.user_id]
    if me.side:
        notes.append(f"{me.display_name} (game master) plays {me.side}: {GM_PLAYS}")
    return notes


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
    text = shown(f"{caller.display_name} imported {filename}: {summary}.")
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
