"""Sharpe's Skirmish 40mm (Durham's Chosen Men): the pure rules engine, split by procedure."""
