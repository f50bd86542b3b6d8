"""The OpenAPI document describes the answers the service really sends."""

from typing import Any

from fastapi.testclient import TestClient

from benchboard.errors import ErrorOut


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]


def test_every_documented_422_is_the_error_envelope(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    documented = [
        (path, method, operation["responses"]["422"]["content"]["application/json"]["schema"])
        for path, method, operation in operations(schema)
        if "422" in operation["responses"]
    ]
    assert len(documented) > 20
    for path, method, body in documented:
        assert body == {"$ref": "#/components/schemas/ErrorOut"}, (method, path)
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    assert "ValidationError" not in schema["components"]["schemas"]


def test_a_query_the_framework_rejects_answers_the_documented_envelope(
    client: TestClient,
) -> None:
    schema = client.get("/openapi.json").json()
    documented = schema["components"]["schemas"]["ErrorOut"]
    answer = client.get("/api/v1/runs", params={"limit": 0})
    assert answer.status_code == 422
    body = answer.json()
    assert set(documented["required"]) <= set(body) <= set(documented["properties"])
    assert ErrorOut.model_validate(body).fields[0].path == "limit"
