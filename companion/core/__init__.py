"""The rules core: tiles and notation, sets and jokers, presets, scoring, turns.

Standard library only, so the CLI, the web layer and the photo reader can all call it.
"""
