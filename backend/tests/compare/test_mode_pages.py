"""GET /compare/modes pairs in SQL (compare/modes.py) as pairing.py's rule says, and pages
with limit and cursor like every other list (a page: `limit` sync series with their pairs)."""

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from benchboard.compare.pairing import Candidate, pair_modes
from tests.builders import result, run
from tests.seeded import seeded  # noqa: F401  (a fixture)

SUITE = "pairing-rule"


def _all_pairs(client: TestClient, *, limit: int, **filters: Any) -> list[tuple[int, int]]:
    """Every pair, page after page, as (sync, async) series ids."""
    pairs: list[tuple[int, int]] = []
    cursor = None
    while True:
        params = {**filters, "limit": limit, **({"cursor": cursor} if cursor else {})}
        response = client.get("/api/v1/compare/modes", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        assert len({p["sync"]["series_id"] for p in page["items"]}) <= limit  # sync series
        pairs += [(p["sync"]["series_id"], p["async"]["series_id"]) for p in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return pairs


def _by_the_rule(client: TestClient, **filters: Any) -> list[tuple[int, int]]:
    """pairing.pair_modes over every series the filter shows (mode apart)."""
    response = client.get("/api/v1/series", params={**filters, "limit": 5000})
    candidates = [
        Candidate(
            s["id"],
            s["suite"],
            s["benchmark"],
            s["language"],
            s["hardware"],
            s["metric"],
            s["mode"],
            s["implementation"],
            s["params"],
        )
        for s in response.json()["items"]
        if s["mode"] in ("sync", "async")
    ]
    return sorted((sync.series_id, async_.series_id) for sync, async_ in pair_modes(candidates))


def _tricky_runs(rng: random.Random) -> list[dict[str, Any]]:
    """Params with extra keys on one side, several implementations, a same-implementation
    partner beside others, sync series with no partner, two machines."""
    results = []
    for benchmark in ("read", "write"):
        for size in (1, 2):
            results.append(result(benchmark=benchmark, params={"size": size}, mode="sync"))
            for implementation in ("dart:io", "isolates"):
                params = {"size": size, **({"depth": 4} if implementation == "isolates" else {})}
                if rng.random() < 0.8:
                    results.append(
                        result(
                            benchmark=benchmark,
                            params=params,
                            mode="async",
                            implementation=implementation,
                        )
                    )
        results.append(result(benchmark=benchmark, params={"size": 3}, mode="sync"))
        results.append(result(benchmark=benchmark, params={"size": 4}, mode="async", variant="v"))
    for result_ in results:
        result_["value"] = round(rng.uniform(1, 100), 3)
    return [
        run(suite=SUITE, results=results, hardware={"name": machine})
        for machine in ("box-a", "box-b")
    ]


@pytest.mark.usefixtures("seeded")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sql_pairs_are_the_pairing_rule_and_pages_add_up(
    client: TestClient, auth: dict[str, str], seed: int
) -> None:
    for body in _tricky_runs(random.Random(seed)):
        assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    for filters in ({}, {"suite": SUITE}, {"suite": SUITE, "hardware": "box-b"}, {"mode": "async"}):
        expected = _by_the_rule(client, **{k: v for k, v in filters.items() if k != "mode"})
        assert _all_pairs(client, limit=3, **filters) == expected
        assert _all_pairs(client, limit=1000, **filters) == expected
    assert _all_pairs(client, limit=1000, suite=SUITE)  # the suite has pairs


@pytest.mark.usefixtures("seeded")
def test_a_filter_with_no_pair_answers_an_empty_last_page(client: TestClient) -> None:
    response = client.get("/api/v1/compare/modes", params={"language": "cobol"})
    assert response.json() == {"items": [], "next_cursor": None}


@pytest.mark.usefixtures("seeded")
@pytest.mark.parametrize("language", [None, "cobol"])  # pairs, and none to find
def test_a_tampered_mode_cursor_is_422(client: TestClient, language: str | None) -> None:
    params = {"cursor": "bm90IGEgY3Vyc29y", **({"language": language} if language else {})}
    response = client.get("/api/v1/compare/modes", params=params)
    assert response.status_code == 422
    assert response.json()["fields"] == [{"path": "cursor", "message": "invalid cursor"}]
