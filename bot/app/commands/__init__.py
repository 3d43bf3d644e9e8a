"""Every command of Skirmish GM, declared once and front-end neutral, grouped as a player names
them: ``campaign``, ``roster``, ``game``, ``map``, ``play`` (decide, roll, odds), ``help``, and each
ruleset's actions, read from its engine's action specs (``rulesets``). ``table`` gathers them.

A declaration (:class:`~bot.app.commands.declared.Command`) is plain data: the command's path,
its sentence, a :class:`rules.specs.Params` dataclass for its options, the part of the
application it runs, and its policy (the channel lock, game master only, a picture). The
terminal parses a line against it (``line``); the Discord adapter builds slash commands from it.
Nothing here imports discord.py.
"""
