"""The cyclic garbage collector is off while uploads are parsed and stored, and back on
(if it was on) when the last of them ends, whatever happened inside."""

import gc
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from benchboard.collector import collector_paused
from benchboard.runs import batch, store
from tests.builders import run


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    gc.enable()
    yield
    gc.enable()


def test_paused_inside_and_resumed_after_an_error() -> None:
    seen: list[bool] = []

    def failing_upload() -> None:
        with collector_paused():
            seen.append(gc.isenabled())
            raise RuntimeError("upload failed")

    with pytest.raises(RuntimeError):
        failing_upload()
    assert seen == [False]
    assert gc.isenabled()


def test_overlapping_uploads_share_the_pause_until_the_last_ends() -> None:
    first_in, second_out = threading.Event(), threading.Event()
    seen_by_first: list[bool] = []

    def first() -> None:
        with collector_paused():
            first_in.set()
            second_out.wait(timeout=10)
            seen_by_first.append(gc.isenabled())

    thread = threading.Thread(target=first)
    thread.start()
    assert first_in.wait(timeout=10)
    with collector_paused():
        pass
    second_out.set()
    thread.join(timeout=10)
    assert seen_by_first == [False]  # the second upload's end did not resume it
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_uploads_are_stored_with_the_collector_paused(
    client: TestClient, auth: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    store_run, store_batch = store.store_run, batch.store_batch

    def watched_run(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return store_run(*args, **kwargs)

    def watched_batch(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return store_batch(*args, **kwargs)

    monkeypatch.setattr(store, "store_run", watched_run)
    monkeypatch.setattr(batch, "store_batch", watched_batch)
    assert client.post("/api/v1/runs", json=run(), headers=auth).status_code == 201
    batch_body = {"runs": [run()]}
    assert client.post("/api/v1/runs/batch", json=batch_body, headers=auth).status_code == 201
    assert seen == [False, False]
    assert gc.isenabled()
