"""What the JSON APIs share: one shape for bad input, one way to read the preset."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify

from companion.core.presets import Preset, UnknownPresetError, get_preset


class ApiInputError(Exception):
    """Bad input to a JSON endpoint: answered as ``{"error", "where"}`` with a 4xx status."""

    def __init__(self, message: str, where: Any = None, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.status = status


def preset_field(value: object) -> Preset:
    """The ``preset`` field of a request: absent means the default (Pressman)."""
    if value is not None and not isinstance(value, str):
        raise ApiInputError("`preset` must be a string: pressman, sabra or twist",
                            {"field": "preset"})
    try:
        return get_preset(value)
    except UnknownPresetError as error:
        raise ApiInputError(str(error), {"field": "preset"}) from error


def register_api_errors(app: Flask) -> None:
    @app.errorhandler(ApiInputError)
    def api_input_error(error: ApiInputError) -> tuple[Any, int]:
        return jsonify(error=error.message, where=error.where), error.status
