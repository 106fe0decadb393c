"""What the JSON APIs share: one shape for bad input, one way to read a body and the preset.

Every refusal is ``{"error": "what is wrong", "where": {...} | null}`` with a 4xx status;
``json_body()`` reads a request's JSON object with its size and nesting bounded, so no body
can make the server parse for long or recurse until it fails.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Flask, jsonify, request

from companion.core.presets import Preset, UnknownPresetError, get_preset

MAX_JSON_BYTES = 64 * 1024
"""Far more than any real request (a session's four racks or a full table is under 1 KB)."""
MAX_JSON_DEPTH = 16
"""Objects and lists inside each other: the deepest real request has 3 levels."""


class ApiInputError(Exception):
    """Bad input to a JSON endpoint: answered as ``{"error", "where"}`` with a 4xx status.

    ``extra`` adds fields a client can act on (the tied players, the game another phone
    recorded) beside the two every refusal has.
    """

    def __init__(self, message: str, where: Any = None, status: int = 400,
                 extra: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.status = status
        self.extra = dict(extra or {})


def refusal(error: ApiInputError) -> tuple[Any, int]:
    """The answer to bad input: ``{"error", "where", ...extra}`` with the error's status."""
    return jsonify(error=error.message, where=error.where, **error.extra), error.status


def json_body(*, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH
              ) -> dict[str, Any]:
    """The request's JSON object, or an ``ApiInputError`` saying what is wrong with it."""
    body = {"field": "body"}
    if not request.is_json:
        raise ApiInputError("send a JSON object (Content-Type: application/json)", body)
    if request.content_length is not None and request.content_length > max_bytes:
        raise ApiInputError(f"the JSON body is {request.content_length} bytes; at most "
                            f"{max_bytes} are read", body, 413)
    raw = request.get_data(cache=True)
    if len(raw) > max_bytes:
        raise ApiInputError(f"the JSON body is longer than {max_bytes} bytes", body, 413)
    try:
        payload = json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError:
        raise ApiInputError(f"the JSON body nests deeper than {max_depth} levels",
                            body) from None
    except ValueError as error:  # JSONDecodeError, bad UTF-8, a number of 4,300+ digits
        raise ApiInputError(f"the body is not valid JSON: {error}", body) from None
    if not isinstance(payload, dict):
        raise ApiInputError("send a JSON object ({...}), not "
                            f"{_json_kind(payload)}", body)
    if _depth(payload) > max_depth:
        raise ApiInputError(f"the JSON body nests deeper than {max_depth} levels", body)
    return payload


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _json_kind(value: object) -> str:
    kinds = {list: "a list", str: "a string", bool: "true or false", int: "a number",
             float: "a number", type(None): "null"}
    return kinds.get(type(value), "that")


def _depth(value: object) -> int:
    """How deeply lists and objects nest (without recursion: the parser already allowed
    about a thousand levels)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = (item.values() if isinstance(item, dict)
                    else item if isinstance(item, list) else None)
        if children is None:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


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
    app.register_error_handler(ApiInputError, refusal)
