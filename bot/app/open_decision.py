"""A decision stored to wait for its decider: an engine's (a choice that resumes an action), a
request to join a campaign, a request to take back an action.

Opened by the actions, the campaigns and the undo, answered by :mod:`bot.app.decisions`: this
module is what they share, so none of them imports another to open one.
"""

from __future__ import annotations

from bot.app.replies import PendingDecision
from bot.store import Unit
from bot.store.records import Campaign, Game, NewDecision
from rules.core import Decision as AskedDecision

#: A player's request to take back an action that rolled dice (:mod:`bot.app.undo`): answered by
#: the other side or the game master, without the engine.
UNDO_KIND = "undo"


async def open_decision(
    u: Unit,
    campaign: Campaign,
    game: Game | None,
    decision: AskedDecision,
    *,
    user_id: int | None = None,
    kind: str | None = None,
) -> PendingDecision:
    """Store ``decision`` so it can wait for hours and outlive a restart; who is to answer it."""
    stored = await u.decisions.add(
        NewDecision(
            campaign_id=campaign.id,
            game_id=game.id if game else None,
            decider=decision.decider,
            user_id=user_id,
            kind=kind or decision.resume_action,
            prompt=decision.prompt,
            choices=tuple(decision.choices),
            resume={"action": decision.resume_action, "params": dict(decision.params)},
            channel_id=campaign.channel_id,
        )
    )
    user_ids = await u.members.user_ids_of(campaign.id, decision.decider)
    return PendingDecision(stored.id, decision.decider, tuple(user_ids), decision.prompt, tuple(decision.choices))
