"""Integer params past 64 bits (contract v1: any number) are kept exactly, from the upload
to every read that shows them."""

import json
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.models import Series
from tests.builders import result, run

SEED = 2**70 + 1  # a float would read 1180591620717411303424
PARAMS = {"seed": SEED, "offset": -(2**63) - 1, "writes": 10000}


def upload(client: TestClient, auth: dict[str, str], path: str, body: Any) -> Any:
    response = client.post(
        path, content=json.dumps(body), headers={"Content-Type": "application/json", **auth}
    )
    assert response.status_code == 201, response.text
    return response.json()


def read(client: TestClient, path: str, **query: Any) -> Any:
    response = client.get(path, params=query)
    assert response.status_code == 200, response.text
    # The standard library reads JSON integers exactly: what the service wrote is seen.
    return response.json()


def test_params_past_64_bits_read_back_exactly(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    body = run(hardware={"name": "m", "serial": 2**80}, results=[result(params=PARAMS)])
    upload(client, auth, "/api/v1/runs", body)

    assert session.scalar(select(Series.params)) == PARAMS
    stored = read(client, f"/api/v1/runs/{body['id']}")
    assert stored["results"][0]["params"] == PARAMS
    assert stored["hardware"]["info"]["serial"] == 2**80
    assert read(client, f"/api/v1/runs/{body['id']}/upload") == body
    (series,) = read(client, "/api/v1/series")["items"]
    assert series["params"] == PARAMS
    history = read(client, f"/api/v1/series/{series['id']}/history")
    assert history["series"]["params"] == PARAMS
    assert [point["value"] for point in history["points"]] == [119.898]
    facets = read(client, "/api/v1/facets")["dimensions"]
    assert facets["benchmark"] == [{"value": "file-write-tiny", "count": 1}]


def test_params_one_apart_past_64_bits_are_two_series(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    """As floats, 2**70 and 2**70 + 1 were one series."""
    for seed in (SEED, SEED - 1, SEED):
        upload(client, auth, "/api/v1/runs", run(results=[result(params={"seed": seed})]))
    assert session.scalar(select(func.count()).select_from(Series)) == 2
    seeds = [item["params"]["seed"] for item in read(client, "/api/v1/series")["items"]]
    assert sorted(seeds) == [SEED - 1, SEED]


def test_batch_keeps_params_past_64_bits(client: TestClient, auth: dict[str, str]) -> None:
    first, second = run(results=[result(params=PARAMS)]), run(name="second")
    upload(client, auth, "/api/v1/runs/batch", {"runs": [first, second]})
    assert read(client, f"/api/v1/runs/{first['id']}/upload") == first
    assert read(client, f"/api/v1/runs/{first['id']}")["results"][0]["params"] == PARAMS


def test_a_different_long_integer_under_a_stored_id_is_409(
    client: TestClient, auth: dict[str, str]
) -> None:
    """Bodies equal only as floats are different bodies."""
    body = run(results=[result(params={"seed": SEED})])
    upload(client, auth, "/api/v1/runs", body)
    changed = run(id=body["id"], results=[result(params={"seed": SEED - 1})])
    response = client.post(
        "/api/v1/runs",
        content=json.dumps(changed),
        headers={"Content-Type": "application/json", **auth},
    )
    assert response.status_code == 409, response.text
