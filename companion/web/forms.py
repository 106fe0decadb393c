"""Form pieces every feature shares."""

from __future__ import annotations

from wtforms.fields.choices import SelectChoice

from companion.core.presets import PRESETS

PRESET_CHOICES = [SelectChoice(preset.key, preset.name) for preset in PRESETS.values()]
TILE_FIELD = {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
"""Attributes of a field that takes tile notation: no autocorrect on a phone keyboard."""
