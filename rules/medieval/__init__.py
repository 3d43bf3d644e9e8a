"""The medieval skirmish system (Speed/Bravery/Shoot/Fight/Health; RULES-NOTES.md section 5).

``engine.py`` is the Engine; ``data.py`` the tables' shape and checks; ``state.py`` the game state;
``kit.py`` reading a roster entry (profile, stats, weapons, armour); ``combat.py`` the dice
procedures (Bravery tests, to-hit, hand-to-hand, the wound chart).
"""
