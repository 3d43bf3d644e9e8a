"""Events, boards and rolls drawn as cards; cards drawn as Discord embeds or terminal text."""
