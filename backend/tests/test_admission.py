"""A saturated service turns the excess away at once with a 503 and Retry-After, while
health and the dashboard still answer (admission.py)."""

import time
from concurrent.futures import ThreadPoolExecutor

import httpx
from sqlalchemy import Engine, text

from benchboard.config import Settings
from benchboard.errors import Overloaded
from tests.live import live_service_on

WAIT_S = 0.3


def _waiting_on_a_lock(engine: Engine) -> bool:
    with engine.connect() as probe:
        waiting = probe.scalar(
            text(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND query LIKE '%suite_branch%'"
            )
        )
    return bool(waiting)


def test_over_the_limit_a_request_gets_a_quick_503_with_retry_after(
    settings: Settings, engine: Engine
) -> None:
    one_at_a_time = settings.model_copy(update={"request_concurrency": 1, "request_wait_s": WAIT_S})
    with (
        live_service_on(one_at_a_time, engine) as live,
        engine.connect() as holder,
        ThreadPoolExecutor(1) as pool,
    ):
        # The suite list reads suite_branch: locked, its request holds the only turn.
        holder.execute(text("LOCK TABLE suite_branch IN ACCESS EXCLUSIVE MODE"))
        blocked = pool.submit(httpx.get, f"{live.url}/api/v1/suites", timeout=30)
        deadline = time.monotonic() + 10
        while not _waiting_on_a_lock(engine) and time.monotonic() < deadline:
            time.sleep(0.05)
        started = time.monotonic()
        turned_away = httpx.get(f"{live.url}/api/v1/series", timeout=10)
        waited = time.monotonic() - started
        health = httpx.get(f"{live.url}/api/v1/health", timeout=10)
        page = httpx.get(f"{live.url}/studies/any", timeout=10)
        holder.rollback()
        served = blocked.result()
    assert turned_away.status_code == 503
    assert turned_away.headers["Retry-After"] == str(Overloaded.retry_after_s)
    assert turned_away.json()["error"] == "overloaded"
    assert WAIT_S <= waited < WAIT_S + 1.0
    assert health.status_code == 200
    assert page.status_code != 503  # 200, or 404 where the dashboard is not built
    assert served.status_code == 200


def test_a_kept_answer_needs_no_turn_but_a_request_with_a_token_waits_for_one(
    settings: Settings, engine: Engine
) -> None:
    one_at_a_time = settings.model_copy(
        update={"request_concurrency": 1, "request_wait_s": WAIT_S, "read_cache_mb": 8}
    )
    with (
        live_service_on(one_at_a_time, engine) as live,
        engine.connect() as holder,
        ThreadPoolExecutor(1) as pool,
    ):
        # Taking the lock moves the data's version, so the answer is kept after it.
        holder.execute(text("LOCK TABLE suite_branch IN ACCESS EXCLUSIVE MODE"))
        built = httpx.get(f"{live.url}/api/v1/runs", timeout=10)
        blocked = pool.submit(httpx.get, f"{live.url}/api/v1/suites", timeout=30)
        deadline = time.monotonic() + 10
        while not _waiting_on_a_lock(engine) and time.monotonic() < deadline:
            time.sleep(0.05)
        kept = httpx.get(f"{live.url}/api/v1/runs", timeout=10)
        revalidated = httpx.get(
            f"{live.url}/api/v1/runs", headers={"If-None-Match": built.headers["ETag"]}
        )
        auth = {"Authorization": f"Bearer {live.token}"}
        with_token = httpx.get(f"{live.url}/api/v1/runs", headers=auth, timeout=10)
        holder.rollback()
        served = blocked.result()
    assert built.status_code == kept.status_code == 200
    assert kept.content == built.content
    assert kept.headers["ETag"] == built.headers["ETag"]
    assert revalidated.status_code == 304
    assert with_token.status_code == 503  # its answer may differ: it takes its turn
    assert served.status_code == 200
