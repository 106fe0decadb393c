"""What the JSON APIs share: one shape for bad input, one way to read a body and the preset.

Every refusal is ``{"error": "what is wrong", "where": {...} | null}`` with a 4xx status;
``json_body()`` reads a request's JSON object with its size and nesting bounded, so no body
can make the server parse for long or recurse until it fails, and with every text in it valid
Unicode: JSON may spell half of a surrogate pair (``"\\ud800"``), which Python decodes to a
string that cannot be encoded again, so it would fail later in SQLite, a hash or a log line.
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


def json_body(*, example: str | None = None, max_bytes: int = MAX_JSON_BYTES,
              max_depth: int = MAX_JSON_DEPTH) -> dict[str, Any]:
    """The request's JSON object, or an ``ApiInputError`` saying what is wrong with it.

    ``example`` is a body the endpoint accepts, shown when the body is not an object at all.
    """
    body = {"field": "body"}
    such_as = f" such as {example}" if example else ""
    if not request.is_json:
        raise ApiInputError(f"send a JSON object{such_as} (Content-Type: application/json)",
                            body)
    if request.content_length is not None and request.content_length > max_bytes:
        raise ApiInputError(f"the JSON body is {request.content_length} bytes: too large, "
                            f"at most {max_bytes // 1024} KB are read", body, 413)
    raw = request.get_data(cache=True)
    if len(raw) > max_bytes:
        raise ApiInputError(f"the JSON body is too large: at most {max_bytes // 1024} KB are "
                            "read", body, 413)
    try:
        payload = parse_json_text(raw)
    except JsonTextError as error:
        if error.too_deep:
            raise ApiInputError(f"the JSON body nests deeper than {max_depth} levels",
                                body) from None
        raise ApiInputError(f"the body is not valid JSON: {error}", body) from None
    if not isinstance(payload, dict):
        raise ApiInputError(f"send a JSON object{such_as or ' ({...})'}, not "
                            f"{_json_kind(payload)}", body)
    depth, broken_text = _walk(payload)
    if depth > max_depth:
        raise ApiInputError(f"the JSON body nests deeper than {max_depth} levels", body)
    if broken_text is not None:
        message, where = _broken_text_words(broken_text)
        raise ApiInputError(message, where)
    return payload


def broken_text_problem(value: object) -> tuple[str, dict[str, Any]] | None:
    """What is said of the first text in parsed JSON that is not valid Unicode (half of a
    surrogate pair), and where it is; None when every key and value can be stored."""
    _depth, broken_text = _walk(value)
    return None if broken_text is None else _broken_text_words(broken_text)


def _broken_text_words(broken_text: tuple[Path, str, bool]) -> tuple[str, dict[str, Any]]:
    path, text, in_key = broken_text
    place = f"a name in {_path_words(path)}" if in_key else _path_words(path)
    message = (f"{place} holds half of a surrogate pair ({_escaped_surrogate(text)}), which "
               "is not a character: send valid Unicode text")
    return message, _where(path)


class JsonTextError(ValueError):
    """Text that is not JSON this server reads; ``too_deep`` when it nests so deeply that the
    parser ran out of recursion (a few thousand ``[`` are enough)."""

    def __init__(self, message: str, *, too_deep: bool = False) -> None:
        super().__init__(message)
        self.too_deep = too_deep


def parse_json_text(raw: str | bytes) -> Any:
    """Parse JSON from outside (a request body, an uploaded or carried file, a file given to
    the CLI): every way it can fail is one ``JsonTextError``. ``json.loads`` itself raises a
    RecursionError for deep nesting and a plain ValueError (not a JSONDecodeError) for bad
    UTF-8 or a number of 4,300+ digits; NaN and Infinity, which JSON has not, are refused."""
    try:
        return json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError:
        raise JsonTextError("it nests lists or objects too deeply", too_deep=True) from None
    except ValueError as error:
        raise JsonTextError(str(error)) from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _json_kind(value: object) -> str:
    kinds = {list: "a list", str: "a string", bool: "true or false", int: "a number",
             float: "a number", type(None): "null"}
    return kinds.get(type(value), "that")


Path = tuple[str | int, ...]
"""Where a value sits in the body: object keys and list positions from the top."""


def _walk(value: object) -> tuple[int, tuple[Path, str, bool] | None]:
    """How deeply lists and objects nest, and the first text (a key or a value) that is not
    valid Unicode with where it sits (and whether it is an object's key). Without recursion:
    the parser already allowed about a thousand levels."""
    deepest = 0
    broken: tuple[Path, str, bool] | None = None
    stack: list[tuple[object, Path]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if broken is None and not _encodable(item):
                broken = (path, item, False)
            continue
        if isinstance(item, dict):
            for key, child in item.items():
                if broken is None and not _encodable(key):
                    broken = (path, key, True)
                stack.append((child, (*path, key)))
        elif isinstance(item, list):
            stack.extend((child, (*path, index)) for index, child in enumerate(item))
        else:
            continue
        deepest = max(deepest, len(path) + 1)
    return deepest, broken


def _encodable(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _escaped_surrogate(text: str) -> str:
    lone = next(char for char in text if not _encodable(char))
    return f"\\u{ord(lone):04x}"


def _path_words(path: Path) -> str:
    if not path:
        return "the JSON object"
    return "`" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}"
                         for part in path).lstrip(".") + "`"


def _where(path: Path) -> dict[str, Any]:
    """The top field, and the rest of the path when the text is deeper (a player's name)."""
    if not path or not isinstance(path[0], str) or not _encodable(path[0]):
        return {"field": "body"}
    where: dict[str, Any] = {"field": path[0]}
    if len(path) > 1:
        where["path"] = [part if isinstance(part, int) or _encodable(part) else "?"
                         for part in path[1:]]
    return where


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
