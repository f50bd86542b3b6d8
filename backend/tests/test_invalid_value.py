"""A value PostgreSQL refuses (SQLSTATE class 22) that no route's bound caught is the
client's 422 `invalid_value`, never a 500: the backstop behind every route's own bounds."""

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text

from benchboard.errors import install_error_handlers


def _app_reading(engine: Engine, statement: str) -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/value")
    def read_value(raw: str) -> int:
        with engine.connect() as connection:
            value = connection.execute(text(statement), {"raw": raw}).scalar_one()
        return int(value)

    return app


def test_a_value_out_of_the_column_range_is_422_invalid_value(engine: Engine) -> None:
    app = _app_reading(engine, "SELECT CAST(:raw AS bigint)")
    with TestClient(app, raise_server_exceptions=False) as client:
        fine = client.get("/value", params={"raw": "42"})
        refused = client.get("/value", params={"raw": "9" * 30})
    assert fine.status_code == 200
    assert fine.json() == 42
    assert refused.status_code == 422, refused.text
    body = refused.json()
    assert body["error"] == "invalid_value"
    assert "out of range for type bigint" in body["message"]


def test_a_malformed_value_is_422_invalid_value(engine: Engine) -> None:
    app = _app_reading(engine, "SELECT EXTRACT(EPOCH FROM CAST(:raw AS timestamptz))")
    with TestClient(app, raise_server_exceptions=False) as client:
        refused = client.get("/value", params={"raw": "the day after tomorrow"})
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"] == "invalid_value"
