"""The reads a new API process makes before it serves (warm_up.py)."""

import logging
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import _EffectiveRouteContext
from fastapi.testclient import TestClient
from sqlalchemy import Connection, create_engine
from sqlalchemy.orm import sessionmaker

from benchboard.series.filters import DIMENSIONS
from benchboard.warm_up import build_routes, warm_up_reads
from tests.seeded import seeded  # noqa: F401  (seeded is a fixture)


@pytest.mark.usefixtures("seeded")
def test_warm_up_compiles_a_series_list_per_dimension(
    connection: Connection, caplog: pytest.LogCaptureFixture
) -> None:
    compiled: dict[Any, Any] = {}
    connection.execution_options(compiled_cache=compiled)
    factory = sessionmaker(bind=connection, join_transaction_mode="create_savepoint")
    with caplog.at_level(logging.INFO, logger="benchboard.warm_up"):
        warm_up_reads(factory)
    assert [r.getMessage().startswith("warm-up reads done") for r in caplog.records] == [True]
    # Each dimension the demo fills is a statement shape of its own, compiled here once:
    # the facets, the groups' count and the page of ids of a list filtered by it.
    assert len(compiled) > 2 * len(DIMENSIONS)


def test_warm_up_without_a_database_lets_the_process_start(
    caplog: pytest.LogCaptureFixture,
) -> None:
    nowhere = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")
    with caplog.at_level(logging.WARNING, logger="benchboard.warm_up"):
        warm_up_reads(sessionmaker(bind=nowhere))
    assert "warm-up reads stopped" in caplog.text


def _routes_built_by(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many routes FastAPI builds while answering a few reads."""
    built = 0
    build = _EffectiveRouteContext.from_api_route

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal built
        built += 1
        return build(*args, **kwargs)

    monkeypatch.setattr(_EffectiveRouteContext, "from_api_route", counted)
    for path in ("/api/v1/facets", "/api/v1/suites", "/api/v1/regressions"):
        assert client.get(path).status_code == 200
    return built


def test_the_first_requests_build_no_route_after_the_warm_up(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_routes(app)
    with TestClient(app) as client:
        assert _routes_built_by(client, monkeypatch) == 0


def test_without_the_warm_up_the_first_requests_build_routes(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What build_routes is for: FastAPI builds a router's routes on its first request.
    with TestClient(app) as client:
        assert _routes_built_by(client, monkeypatch) > 0
