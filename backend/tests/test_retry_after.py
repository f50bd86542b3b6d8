"""The ingest client against the real service's 503s: it waits what Retry-After asks
(short for a lost lock race, longer for an outage) and sends the same run again."""

import uuid
from typing import Any

import pytest
from sqlalchemy import Engine

from benchboard.config import Settings
from benchboard.errors import DatabaseBusy, DatabaseUnavailable
from benchboard_ingest.client import Service, ServiceUnavailable, upload_run
from tests.builders import run
from tests.live import live_service_on
from tests.processes import free_port


def unique_run() -> dict[str, Any]:
    tag = uuid.uuid4().hex[:8]
    return run(suite=f"retry-{tag}", hardware={"name": f"retry-{tag}"})


def test_the_client_waits_out_a_lock_race_and_then_stores_the_run(
    settings: Settings, engine: Engine
) -> None:
    impatient = engine.url.update_query_dict({"options": "-c lock_timeout=200ms"})
    body = unique_run()
    waits: list[float] = []
    retries: list[str] = []
    with (
        live_service_on(
            settings, engine, database_url=impatient.render_as_string(hide_password=False)
        ) as live,
        engine.connect() as holder,
    ):
        live.suites.add(body["suite"])
        live.machines.add(body["hardware"]["name"])
        # Every upload adds to its suite branch's totals: a SHARE lock makes it time out.
        holder.exec_driver_sql("LOCK TABLE suite_branch IN SHARE MODE")

        def sleep(seconds: float) -> None:
            waits.append(seconds)
            holder.rollback()  # the lock goes while the client waits

        service = Service(
            live.url, token=live.token, sleep=sleep, on_retry=lambda _, why: retries.append(why)
        )
        answer = upload_run(body, service)
    assert answer.status == 201
    assert waits == [DatabaseBusy.retry_after_s]
    assert retries == [f"HTTP 503 database_busy, Retry-After {DatabaseBusy.retry_after_s} s"]


def test_the_client_waits_what_an_outage_asks(settings: Settings, engine: Engine) -> None:
    away = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/benchboard"
    waits: list[float] = []
    with live_service_on(settings, engine, database_url=away) as live:
        service = Service(live.url, token=live.token, retries=2, sleep=waits.append)
        with pytest.raises(ServiceUnavailable) as caught:
            upload_run(unique_run(), service)
    assert waits == [DatabaseUnavailable.retry_after_s] * 2
    assert "HTTP 503 database_unavailable" in str(caught.value)
