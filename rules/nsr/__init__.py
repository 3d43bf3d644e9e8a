"""Napoleonic Skirmish Rules 1.9 (16 March 2004): units, a card deck and charts (RULES-NOTES.md section 3)."""
