"""The Discord adapter: the only code in ``bot/`` that imports discord.py.

* :mod:`bot.adapter.client`: the bot (loads the cogs by name, syncs the commands, runs the pace
  scheduler) and its command tree, whose ``on_error`` is the one error handler.
* :mod:`bot.adapter.slash`: a declared command (:mod:`bot.app.commands`) as a slash command:
  its options, completions and the delivery of its answer; :mod:`bot.adapter.attachments` reads
  an attached file for it.
* :mod:`bot.adapter.delivery`: :func:`~bot.adapter.delivery.deliver`, the one way a reply reaches
  an interaction; :class:`~bot.adapter.delivery.Deferral`, the one "defer if slow" path of every
  reply that may be slow; and the persistent buttons that come with replies (a decision's
  choices, a log's pages), whose clicks are answered the same way.
* :mod:`bot.adapter.messages`: who is calling, and a reply as the arguments of a Discord message.
* :mod:`bot.adapter.errors`: what the player is told about any exception.
* :mod:`bot.adapter.once`: each interaction answered once (a repeated delivery is dropped).
* :mod:`bot.adapter.scheduler`: the pace scheduler, which posts reminders and timeouts.

The cogs import this package, the application layer and the rules; nothing in ``bot/`` imports
the cogs (the client loads them by name, and they register the buttons).
"""
