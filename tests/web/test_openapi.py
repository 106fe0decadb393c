"""The API's OpenAPI 3.1 document (GET /api/v1/openapi.json) against the app's real routes
and the OpenAPI schema: every /api/v1 route and method documented, every documented one real."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate

API = "/api/v1"
NOT_OPERATIONS = {"HEAD", "OPTIONS"}


def routes_of(app: Flask) -> set[tuple[str, str]]:
    """(method, path) of every /api/v1 route, the path written as OpenAPI writes it."""
    found = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(API + "/") or rule.endpoint == "openapi.openapi":
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule[len(API):])
        found |= {(method, path) for method in rule.methods - NOT_OPERATIONS}
    return found


def documented(document: dict) -> set[tuple[str, str]]:
    return {(method.upper(), path) for path, item in document["paths"].items()
            for method in item if method != "parameters"}


def test_the_document_is_served_and_valid_openapi_3_1(client: FlaskClient) -> None:
    answer = client.get(f"{API}/openapi.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    document = answer.json
    assert document["openapi"].startswith("3.1")
    validate(document)  # raises, naming the place, on a document that breaks the schema


def test_every_route_is_documented_and_every_documented_route_is_real(
        app: Flask, client: FlaskClient) -> None:
    document = client.get(f"{API}/openapi.json").json
    real, described = routes_of(app), documented(document)
    assert real, "no /api/v1 routes found"
    assert not real - described, f"routes missing from the document: {sorted(real - described)}"
    assert not described - real, f"documented but not served: {sorted(described - real)}"


def test_every_path_parameter_is_declared(client: FlaskClient) -> None:
    document = client.get(f"{API}/openapi.json").json
    components = document["components"]["parameters"]
    for path, item in document["paths"].items():
        declared = set()
        for operation in [item, *(v for k, v in item.items() if k != "parameters")]:
            for parameter in operation.get("parameters", []):
                if "$ref" in parameter:
                    parameter = components[parameter["$ref"].rsplit("/", 1)[-1]]
                if parameter["in"] == "path":
                    declared.add(parameter["name"])
        assert declared == set(re.findall(r"{(\w+)}", path)), path
