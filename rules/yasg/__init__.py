"""Yet Another Skirmish Game (after Paddy Griffith, 1980) on a square grid: ``engine.py`` and ``tables.yaml``."""
