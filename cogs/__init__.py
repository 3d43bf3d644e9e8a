"""Thin Discord cogs: parse the interaction, call the application layer, deliver its reply.

``EXTENSIONS`` lists every cog module the bot loads; the terminal walks the same command tree.
"""
EXTENSIONS = ("cogs.campaign", "cogs.roster", "cogs.game", "cogs.decisions", "cogs.roll", "cogs.admin", "cogs.ssg")
