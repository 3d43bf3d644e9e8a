"""A campaign's battlefield: its setting (the bot's map or a table), the map draft kept in its
settings, and the battlefield's picture ordered for a reply. What /map, /game and every action
share; the /map commands are :mod:`bot.app.maps`.

A campaign plays on the bot's map or on a table of its own (``settings["battlefield"]``: ``map`` or
``table``; a campaign without the key, as every campaign made before the map existed, plays on a
table). Between battles the game master drafts the map the next battle is fought on; the draft is
kept in the campaign's settings (``settings["map"]``) as the map file
:func:`rules.battlefield.map_file` writes, and read back through the ruleset's own
:meth:`~rules.core.Engine.read_map` every time, so a draft is always held to every rule a file is
(and to the campaign's house rules as they are now).
"""

from __future__ import annotations

from typing import Any

from bot.app import map_checks
from bot.app.feature_names import read_named_map
from bot.app.map_work import CheckedMap
from bot.app.replies import Card, PictureOrder, Refusal, Reply
from bot.render.field_text import field_brief, field_text
from bot.render.shown import shown
from bot.store.records import Campaign, Game
from rules.battlefield import FieldState, FieldView, MapData, Terrain
from rules.core import DataError, Engine, short

#: The campaign settings this module keeps.
BATTLEFIELD = "battlefield"
MAP_DRAFT = "map"
BATTLEFIELDS = ("map", "table")
ON_A_TABLE = "This battle is played on a table, not on the bot's map."
CHANGE_BETWEEN_BATTLES = "A battle is in progress: the map changes between battles."


# --- the campaign's setting --------------------------------------------------------------------


def battlefield_of(campaign: Campaign) -> str:
    """``map`` or ``table``: how the campaign plays (``table`` when it never said)."""
    return "map" if (campaign.settings or {}).get(BATTLEFIELD) == "map" else "table"


def on_map(campaign: Campaign, engine: Engine[Any]) -> bool:
    """Whether the campaign's battles are fought on the bot's map."""
    return battlefield_of(campaign) == "map" and engine.plays_on_map


def default_battlefield(engine: Engine[Any]) -> str:
    return "map" if engine.plays_on_map else "table"


def where_fought(engine: Engine[Any], mode: str) -> str:
    """Where a campaign playing ``mode`` fights its battles, as a phrase: the ruleset's own board
    (YASG's grid), the bot's map or the players' table."""
    if engine.own_board:
        return engine.own_board
    if mode == "map":
        return "the bot's map: the game master picks one with /map new"
    return "your own table: players give distances and sight"


def not_on_map(engine: Engine[Any]) -> str:
    """The refusal of the bot's map to a ruleset it does not measure, saying where it is played."""
    return f"{engine.title} is not played on the bot's map but on {where_fought(engine, 'table')}."


def check_battlefield(engine: Engine[Any], mode: str) -> str:
    """``mode`` as the setting keeps it; a map refused for a ruleset the bot cannot measure."""
    chosen = " ".join(str(mode or "").split()).casefold()
    if chosen not in BATTLEFIELDS:
        raise Refusal(f"The battlefield is map or table, not {short(str(mode))}.")
    if chosen == "map" and not engine.plays_on_map:
        raise Refusal(not_on_map(engine))
    return chosen


def battlefield_problem(value: Any) -> str | None:
    """The check of an imported campaign file's ``settings.battlefield``."""
    return None if value in BATTLEFIELDS else f"must be map or table, not {short(repr(value))}"


def draft_problems(engine: Engine[Any], settings: dict[str, Any]) -> list[str]:
    """What an imported campaign file's battlefield settings get wrong for its ruleset."""
    problems = []
    if settings.get(BATTLEFIELD) == "map" and not engine.plays_on_map:
        problems.append(f"settings.battlefield: {engine.title} is not played on the bot's map")
    if MAP_DRAFT in settings:
        if not engine.plays_on_map:
            problems.append(f"settings.map: {engine.title} is not played on the bot's map")
        else:
            try:
                read_named_map(engine, settings[MAP_DRAFT])
            except DataError as exc:
                problems += [f"settings.map: {p}" for p in exc.problems]
    return problems


async def battle_map(campaign: Campaign, engine: Engine[Any]) -> tuple[MapData, str]:
    """The map the next battle is fought on, and a sentence saying which: the campaign's draft
    (checked by its rules as they are now, a large one in the maps' worker), or the ruleset's first
    shipped map."""
    kept = (campaign.settings or {}).get(MAP_DRAFT)
    if kept is not None:
        draft = (
            await map_checks.draft(campaign.ruleset, campaign.house_rules, kept, group=map_checks.group_of(campaign.id))
        ).map
        return draft, f"The battle is fought on the campaign's map, **{shown(draft.name)}**."
    names = engine.scenarios()
    if not names:
        raise Refusal("This ruleset ships no map: the game master makes one first with /map new width: height:.")
    chosen = engine.scenario(names[0])
    return chosen, (
        f"No map was drafted, so the battle is fought on **{shown(chosen.name)}** "
        f"(a shipped map; /map new scenario: picks another before the next battle)."
    )


# --- pictures ----------------------------------------------------------------------------------


def draft_view(engine: Engine[Any], draft: MapData) -> FieldView:
    return FieldView(FieldState(draft), tuple(engine.sides()), title=draft.name)


def draft_key(campaign: Campaign, draft: CheckedMap) -> tuple[Any, ...]:
    return ("draft", campaign.id, draft.digest)


def game_key(game: Game, focus: str | None = None) -> tuple[Any, ...]:
    return ("game", game.id, game.version, (focus or "").casefold())


def order_picture(
    reply: Reply, card: Card, key: tuple[Any, ...], view: FieldView, terrain: Terrain, *, brief: bool = False
) -> None:
    """Show ``view`` in ``card`` (added to the reply if it is not there): its picture ordered, its
    text view for the terminal (written only if a terminal prints it): the whole battlefield, or
    (``brief``, after an action) where everyone stands now, without the terrain said once already."""
    if not any(c is card for c in reply.cards):
        reply.cards.append(card)
    index = next(i for i, c in enumerate(reply.cards) if c is card)
    before = card.text_extra

    def text() -> str:
        earlier = before() if callable(before) else before
        told = field_brief(view) if brief else field_text(view, terrain)
        return "\n".join(part for part in (earlier, told) if part)

    card.text_extra = text
    reply.picture = PictureOrder(key, view, terrain, index)


def game_picture(reply: Reply, card: Card, engine: Engine[Any], game: Game, state: Any, *, brief: bool = False) -> bool:
    """The game's battlefield in ``card``, when the game is played on the map; whether it is."""
    view = engine.field_view(state)
    if view is None:
        return False
    order_picture(reply, card, game_key(game), view, engine.terrain(), brief=brief)
    return True
