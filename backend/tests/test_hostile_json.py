"""Hostile JSON bodies get the client's error, never a 5xx: nesting past MAX_JSON_DEPTH on
every route that takes a body, and JSON null in every field a PATCH or PUT may send."""

import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from benchboard.bounds import MAX_JSON_DEPTH, json_depth

# As the issue found them: 200,000 levels broke Python's recursive parser behind a 500.
DEEP_ARRAYS = "[" * 200_000 + "]" * 200_000
DEEP_OBJECTS = '{"a":' * 100_000 + "1" + "}" * 100_000  # within the tests' 1 MB body limit
JUST_TOO_DEEP = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)


def _routes_with_a_body(app: FastAPI) -> list[tuple[str, str, dict[str, str]]]:
    """(method, path with ids filled in, required query) of every operation with a body."""
    found = []
    for path, operations in app.openapi()["paths"].items():
        for method, operation in operations.items():
            if "requestBody" not in operation:
                continue
            query = {
                parameter["name"]: "x"
                for parameter in operation.get("parameters", [])
                if parameter["in"] == "query" and parameter.get("required")
            }
            concrete = re.sub(r"\{tool_format\}", "fio", path)
            concrete = re.sub(r"\{suite\}", "x", concrete)
            found.append((method.upper(), re.sub(r"\{[a-z_]+\}", "1", concrete), query))
    return found


def test_every_body_route_is_covered(app: FastAPI) -> None:
    covered = {(method, path) for method, path, _ in _routes_with_a_body(app)}
    assert {("POST", "/api/v1/runs"), ("POST", "/api/v1/runs/batch")} <= covered
    assert ("PATCH", "/api/v1/regressions/1") in covered
    assert ("POST", "/api/v1/ingest/fio") in covered
    assert len(covered) >= 8


@pytest.mark.parametrize("body", [DEEP_ARRAYS, DEEP_OBJECTS, JUST_TOO_DEEP])
def test_nesting_past_the_limit_is_422_naming_the_body(
    client: TestClient, app: FastAPI, admin_token: str, body: str
) -> None:
    headers = {"Authorization": f"Bearer {admin_token}", "Content-Type": "application/json"}
    for method, path, query in _routes_with_a_body(app):
        response = client.request(method, path, params=query, content=body, headers=headers)
        assert response.status_code == 422, (method, path, response.text)
        error = response.json()
        assert error["fields"] == [
            {
                "path": "(body)",
                "message": f"nests arrays and objects deeper than {MAX_JSON_DEPTH} levels",
            }
        ], (method, path)


def test_depth_ignores_brackets_inside_strings() -> None:
    assert json_depth(b'{"a": "[[[[{{{{", "b": ["\\"]]]"]}') == 2
    assert json_depth(b"[5] 1.00 GBytes  [  6] sum") == 1
    assert json_depth(b"") == 0


def test_a_contract_upload_nested_to_the_limit_is_judged_on_its_fields(
    client: TestClient, auth: dict[str, str]
) -> None:
    nested: Any = 1
    for _ in range(MAX_JSON_DEPTH - 3):
        nested = {"x": nested}
    response = client.post(
        "/api/v1/runs", json={"suite": "s", "results": [{"params": nested}]}, headers=auth
    )
    assert response.status_code == 422
    assert all(field["path"] != "(body)" for field in response.json()["fields"])
