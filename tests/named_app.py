"""The application as the tests call it: each command under one name (``app.campaign_new``), calling
its part with the policy of the command it stands for (a picture drawn and attached when the
command shows the battlefield, as :meth:`bot.app.commands.declared.Command.answered` does), so a
test reads as the command a player gives while :class:`bot.app.service.App` exposes only its parts."""

from __future__ import annotations

from typing import Any

from bot.app.commands.table import command_table
from bot.app.service import App

#: A name, the part and method it calls, and the declared command whose policy it follows (an
#: action follows any ruleset action's: every one shows the battlefield after it).
NAMES: dict[str, tuple[str, str, str | None]] = {
    "campaign_new": ("campaigns", "campaign_new", "campaign new"),
    "campaign_join": ("campaigns", "campaign_join", "campaign join"),
    "campaign_info": ("campaigns", "campaign_info", "campaign info"),
    "campaign_end": ("campaigns", "campaign_end", "campaign end"),
    "campaign_battlefield": ("campaigns", "campaign_battlefield", "campaign battlefield"),
    "roster_add": ("rosters", "roster_add", "roster add"),
    "roster_list": ("rosters", "roster_list", "roster list"),
    "roster_show": ("rosters", "roster_show", "roster show"),
    "roster_remove": ("rosters", "roster_remove", "roster remove"),
    "roster_export": ("exchange", "roster_export", "roster export"),
    "roster_import": ("exchange", "roster_import", "roster import"),
    "campaign_export": ("exchange", "campaign_export", "campaign export"),
    "campaign_import": ("exchange", "campaign_import", "campaign import"),
    "rules_set": ("exchange", "rules_set", "campaign rules set"),
    "rules_show": ("exchange", "rules_show", "campaign rules show"),
    "rules_clear": ("exchange", "rules_clear", "campaign rules clear"),
    "game_start": ("games", "game_start", "game start"),
    "act": ("actions", "act", "ssg next"),
    "game_status": ("games", "game_status", "game status"),
    "game_undo": ("games", "game_undo", "game undo"),
    "game_end": ("games", "game_end", "game end"),
    "game_log": ("reports", "game_log", "game log"),
    "game_report": ("reports", "game_report", "game report"),
    "decide": ("decisions", "decide", "decide"),
    "open_decisions": ("decisions", "open_decisions", None),
    "roll": ("rolls", "roll", "roll"),
    "figure_names": ("rolls", "figure_names", None),
    "campaign_ruleset": ("rolls", "campaign_ruleset", None),
    "side_names": ("rolls", "side_names", None),
    "kind_names": ("rolls", "kind_names", None),
    "odds": ("odds_part", "odds", "odds"),
    "set_deadline": ("pace", "set_deadline", "campaign deadline"),
    "sync_deadlines": ("pace", "sync_deadlines", None),
    "due_reminders": ("pace", "due_reminders", None),
    "send_reminder": ("pace", "send_reminder", None),
    "release_reminder": ("pace", "release_reminder", None),
    "due_timeouts": ("pace", "due_timeouts", None),
    "pace_of": ("pace", "pace_of", None),
    "map_new": ("maps", "map_new", "map new"),
    "map_feature_add": ("maps", "feature_add", "map feature add"),
    "map_feature_remove": ("maps", "feature_remove", "map feature remove"),
    "map_zone": ("maps", "zone_set", "map zone"),
    "map_import": ("maps", "map_import", "map import"),
    "map_export": ("maps", "map_export", "map export"),
    "map_show": ("maps", "map_show", "map show"),
    "map_place": ("maps", "place", "map place"),
    "map_deploy": ("maps", "deploy", "map deploy"),
    "map_scenarios": ("maps", "scenario_names", None),
    "map_features": ("maps", "feature_names", None),
}


class NamedApp(App):
    """:class:`App` with a name per command (:data:`NAMES`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        table = command_table()
        for name, (part, method, command) in NAMES.items():
            call = getattr(getattr(self, part), method)
            declared = table[command] if command is not None else None
            if declared is not None and declared.picture:
                call = self.ctx.pictures.drawn(call, follows=declared.follows)
            setattr(self, name, call)
