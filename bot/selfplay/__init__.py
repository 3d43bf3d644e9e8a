"""Self-play: two random sides play whole battles through the terminal table, and invariants are
checked after every line (docs/selfplay.md).

:mod:`bot.selfplay.table` feeds lines to the real terminal front-end (:class:`bot.console.Console`)
on a real SQLite file and reads the saved game between lines; one module per ruleset
(:mod:`bot.selfplay.ssg`, …) chooses the next line; :mod:`bot.selfplay.invariants` holds the
checks, a module per concern; :mod:`bot.selfplay.battle` plays one battle and
:mod:`bot.selfplay.runner` many, in worker processes that are killed when one stops answering.
"""
