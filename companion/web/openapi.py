"""``GET /api/v1/openapi.json``: the API described in OpenAPI 3.1 (companion/web/openapi.json).

The document is written by hand, next to the routes it describes; tests/web/test_openapi.py
holds it to the app's real routes (every /api/v1 route documented, every documented route
real) and to the OpenAPI 3.1 schema.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

from flask import Blueprint, Response

bp = Blueprint("openapi", __name__)


@cache
def openapi_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        files("companion.web").joinpath("openapi.json").read_text(encoding="utf-8"))
    return document


@bp.get("/openapi.json")
def openapi() -> Response:
    return Response(json.dumps(openapi_document(), ensure_ascii=False),
                    mimetype="application/json")
