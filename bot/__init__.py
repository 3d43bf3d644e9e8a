"""The shell around the rules: configuration, database, dice, rendering and the front-ends."""
