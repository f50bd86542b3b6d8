"""Study metadata and pinned findings through HTTP: the seed studies' published
comparisons, a maintainer's edits, and bad input refused whole."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchboard.demo import demo_studies, load_demo
from benchboard.findings.service import pinned_run_ids
from benchboard.models import ApiToken, Suite
from benchboard.studies.service import STUDY_RUNS
from benchboard.tokens.service import create_token
from tests.builders import result, run
from tests.seeded import demo_run_count, seeded  # noqa: F401  (a fixture)

SUITE = "sync-vs-async-io"

# The README of the seed studies: each check's ratio (and range where it gives one), in
# the order studies.json pins them.
PUBLISHED = {
    "dart-async-file-writes": [(2.087, None), (1.048, None), (1.825, None)],
    "wpf-async-log-reading": [(2.8, None), (1.5, None), (66.67, None)],
    "go-vs-dart-rest": [
        (3.389, (3.333, 3.444)),
        (3.326, None),
        (1.172, (1.153, 71500 / 60000)),
        (13000 / 5500, (2.167, 2.6)),
    ],
    "dart-isolate-messaging": [
        (1.023, (84 / 87, 91 / 84)),
        (1.215, None),
        (6.7, None),
        (11.17, None),
    ],
    "fio-sync-vs-async": [(33.31, None), (2.482, None), (3.667, None), (4.281, None)],
}


def get(client: TestClient, path: str, **params: Any) -> Any:
    response = client.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.usefixtures("seeded")
def test_seed_studies_pin_the_published_comparisons(client: TestClient) -> None:
    for suite, checks in PUBLISHED.items():
        findings = get(client, f"/api/v1/suites/{suite}/findings")["items"]
        assert [f["ratio"] for f in findings] == pytest.approx([r for r, _ in checks], rel=1e-3)
        for finding, (_, interval) in zip(findings, checks, strict=True):
            if interval is None:
                assert finding["interval"] is None
            else:
                bounds = (finding["interval"]["low"], finding["interval"]["high"])
                assert bounds == pytest.approx(interval, rel=1e-3)
    assert sum(len(checks) for checks in PUBLISHED.values()) == 18


@pytest.mark.usefixtures("seeded")
def test_findings_are_worded_as_readers_say_them(client: TestClient) -> None:
    dart = get(client, "/api/v1/suites/dart-async-file-writes/findings")["items"]
    assert dart[0]["text"] == "async 2.09× slower than sync for 10,000 tiny writes"
    go = get(client, "/api/v1/suites/go-vs-dart-rest/findings")["items"]
    assert go[0]["text"].startswith("Go net/http 3.39× faster than Conduit")
    assert go[0]["numerator"]["hardware"] == go[0]["denominator"]["hardware"]
    assert go[0]["denominator"]["params"]["approx"] is True
    fio = get(client, "/api/v1/suites/fio-sync-vs-async/findings")["items"]
    assert fio[0]["text"].startswith("posixaio 33.3× slower than sync")
    assert fio[1]["text"].startswith("sync 2.48× faster than posixaio")
    isolates = get(client, "/api/v1/suites/dart-isolate-messaging/findings")["items"]
    assert isolates[0]["text"] == (
        "resqlite about the same as sqlite_async per single-row lookup (median): 1.02×, "
        "within the reported ranges"
    )
    assert isolates[0]["verdict"] == "same"
    wpf = get(client, "/api/v1/suites/wpf-async-log-reading/findings")["items"]
    assert [f["difference_base"] for f in wpf[:2]] == pytest.approx([1.8, 0.4])


@pytest.mark.usefixtures("seeded")
def test_study_page_has_metadata_machines_runs_workloads_and_findings(
    client: TestClient,
) -> None:
    study = get(client, "/api/v1/suites/go-vs-dart-rest/study")
    assert study["title"] == "Dart vs Go REST Server Performance Comparison Study"
    assert len(study["runs"]) == min(demo_run_count("go-vs-dart-rest"), STUDY_RUNS)
    assert all(r["tags"]["date_estimated"] == "true" for r in study["runs"])
    machines = {h["name"]: h["info"] for h in study["hardware"]}
    assert machines["do-40vcpu-dedicated"]["cpu"] == "40 dedicated vCPUs"
    assert {"benchmark": "rest-root-route", "metric": "throughput"} in [
        {k: w[k] for k in ("benchmark", "metric")} for w in study["workloads"]
    ]
    assert len(study["findings"]) == len(demo_studies()["go-vs-dart-rest"].findings)
    assert study["links"], "the seed study links its article"
    assert study["links"] == [link.model_dump() for link in demo_studies()["go-vs-dart-rest"].links]
    dart = get(client, "/api/v1/suites/dart-async-file-writes/study")
    assert dart["authors"] == ["Diego Crespo"]
    assert client.get("/api/v1/suites/no-such-suite/study").status_code == 404


@pytest.mark.usefixtures("seeded")
def test_loading_the_demo_again_keeps_a_maintainers_edits(
    client: TestClient, session: Session, maintain_token: str
) -> None:
    path = "/api/v1/suites/dart-async-file-writes"
    kept = get(client, f"{path}/findings")["items"][:1]
    update = {"findings": [_pin(f) for f in kept]}
    assert client.put(f"{path}/findings", json=update, headers=bearer(maintain_token)).is_success
    response = client.put(path, json={"title": "Mine"}, headers=bearer(maintain_token))
    assert response.status_code == 200, response.text
    load_demo(session)
    session.commit()
    assert get(client, path)["title"] == "Mine"
    assert [f["text"] for f in get(client, f"{path}/findings")["items"]] == [kept[0]["text"]]


def _pin(finding: dict[str, Any]) -> dict[str, Any]:
    def side(s: dict[str, Any]) -> dict[str, Any]:
        return {"run_id": s["run_id"], "series_id": s["series_id"], "label": s["label"]}

    return {
        "numerator": side(finding["numerator"]),
        "denominator": side(finding["denominator"]),
        "context": finding["context"],
    }


@pytest.mark.usefixtures("seeded")
def test_home_list_has_each_studys_title_and_first_finding(client: TestClient) -> None:
    suites = {s["suite"]: s for s in get(client, "/api/v1/suites")["items"]}
    dart = suites["dart-async-file-writes"]
    assert dart["title"] == "Thinking Through Async Overhead in Dart"
    assert dart["first_finding"]["text"].startswith("async 2.09× slower")
    assert suites["fio-sync-vs-async"]["first_finding"]["ratio"] == pytest.approx(33.31, rel=1e-3)


def test_a_ci_suite_is_not_titled_by_its_newest_run(
    client: TestClient, auth: dict[str, str]
) -> None:
    for number in (5, 6):
        body = run(name=f"nightly #{number}", started_at=f"2025-03-2{number}T00:00:00Z")
        assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    (suite,) = get(client, "/api/v1/suites")["items"]
    assert suite["title"] is None
    assert suite["first_finding"] is None


def upload_pair(client: TestClient, auth: dict[str, str]) -> tuple[str, dict[str, int]]:
    """A run with sync and async time and an async throughput; its series ids by name."""
    results = [
        result(mode="sync", value=50.0, stats={"min": 40.0, "max": 60.0}),
        result(mode="async", value=100.0),
        result(mode="async", metric="throughput", unit="ops/s", value=10.0),
    ]
    body = run(results=results)
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    items = get(client, "/api/v1/series", suite=SUITE)["items"]
    ids = {f"{s['mode']}-{s['metric']}": s["id"] for s in items}
    return body["id"], ids


def finding(run_id: str, numerator: int, denominator: int, **extra: Any) -> dict[str, Any]:
    return {
        "numerator": {"run_id": run_id, "series_id": numerator, "label": "async"},
        "denominator": {"run_id": run_id, "series_id": denominator, "label": "sync"},
        **extra,
    }


def test_a_maintainer_pins_findings_in_order(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    run_id, ids = upload_pair(client, auth)
    body = {
        "findings": [
            finding(run_id, ids["async-time_per_op"], ids["sync-time_per_op"], context="here"),
            finding(run_id, ids["sync-time_per_op"], ids["async-time_per_op"], note="why"),
        ]
    }
    path = f"/api/v1/suites/{SUITE}/findings"
    response = client.put(path, json=body, headers=bearer(maintain_token))
    assert response.status_code == 200, response.text
    first, second = get(client, path)["items"]
    assert first["text"] == "async 2× slower than sync here"
    assert (first["interval"]["low"], first["interval"]["high"]) == pytest.approx((100 / 60, 2.5))
    assert second["text"] == "async 2× faster than sync"
    assert second["note"] == "why"
    assert first["numerator"]["run_id"] == run_id


def test_removing_every_finding_names_the_token_that_did(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    run_id, ids = upload_pair(client, auth)
    path = f"/api/v1/suites/{SUITE}/findings"
    editor = create_token(session, name="editor", scope="maintain")
    session.commit()
    body = {"findings": [finding(run_id, ids["async-time_per_op"], ids["sync-time_per_op"])]}
    assert client.put(path, json=body, headers=bearer(editor)).status_code == 200
    remover = create_token(session, name="remover", scope="maintain")
    session.commit()
    assert client.put(path, json={"findings": []}, headers=bearer(remover)).status_code == 200
    session.expire_all()
    stored = session.get_one(Suite, SUITE)
    assert stored.token_id == session.scalar(select(ApiToken.id).where(ApiToken.name == "remover"))


def test_findings_need_a_maintain_token(
    client: TestClient, auth: dict[str, str], upload_token: str
) -> None:
    run_id, ids = upload_pair(client, auth)
    body = {"findings": [finding(run_id, ids["async-time_per_op"], ids["sync-time_per_op"])]}
    path = f"/api/v1/suites/{SUITE}/findings"
    assert client.put(path, json=body).status_code == 401
    assert client.put(path, json=body, headers=bearer(upload_token)).status_code == 403
    assert get(client, path)["items"] == []


def test_bad_findings_name_each_field_and_store_nothing(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    run_id, ids = upload_pair(client, auth)
    path = f"/api/v1/suites/{SUITE}/findings"
    good = finding(run_id, ids["async-time_per_op"], ids["sync-time_per_op"])
    assert client.put(path, json={"findings": [good]}, headers=bearer(maintain_token)).is_success
    other_run = "00000000-0000-4000-8000-000000000000"
    body = {
        "findings": [
            good,
            finding(other_run, ids["async-time_per_op"], ids["sync-time_per_op"]),
            finding(run_id, ids["async-time_per_op"], 10**9),
            finding(run_id, ids["async-throughput"], ids["sync-time_per_op"]),
            finding(run_id, ids["sync-time_per_op"], ids["sync-time_per_op"]),
        ]
    }
    response = client.put(path, json=body, headers=bearer(maintain_token))
    assert response.status_code == 422
    paths = [f["path"] for f in response.json()["fields"]]
    assert paths == [
        "findings[1].numerator.run_id",
        "findings[1].denominator.run_id",
        "findings[2].denominator.series_id",
        "findings[3].denominator.series_id",
        "findings[4].denominator",
    ]
    assert [f["text"] for f in get(client, path)["items"]] == ["async 2× slower than sync"]


@pytest.mark.parametrize(
    ("side", "key", "value", "field"),
    [
        ("numerator", "label", "as\x00ync", "findings[1].numerator.label"),
        (None, "context", "for \x00 writes", "findings[1].context"),
        (None, "note", "\x00", "findings[1].note"),
        ("denominator", "series_id", 2**64, "findings[1].denominator.series_id"),
    ],
)
def test_unstorable_findings_are_422_and_leave_the_findings_as_they_were(
    client: TestClient,
    auth: dict[str, str],
    maintain_token: str,
    side: str | None,
    key: str,
    value: object,
    field: str,
) -> None:
    run_id, ids = upload_pair(client, auth)
    path = f"/api/v1/suites/{SUITE}/findings"
    good = finding(run_id, ids["async-time_per_op"], ids["sync-time_per_op"])
    assert client.put(path, json={"findings": [good]}, headers=bearer(maintain_token)).is_success
    bad = finding(run_id, ids["sync-time_per_op"], ids["async-time_per_op"])
    (bad[side] if side else bad)[key] = value
    body = {"findings": [good, bad]}
    response = client.put(path, json=body, headers=bearer(maintain_token))
    assert response.status_code == 422, response.text
    assert [f["path"] for f in response.json()["fields"]] == [field]
    assert [f["text"] for f in get(client, path)["items"]] == ["async 2× slower than sync"]


def test_malformed_findings_name_the_field(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    run_id, ids = upload_pair(client, auth)
    bad = finding(run_id, ids["async-time_per_op"], ids["sync-time_per_op"])
    bad["numerator"]["label"] = ""
    bad["colour"] = "red"
    path = f"/api/v1/suites/{SUITE}/findings"
    response = client.put(path, json={"findings": [bad]}, headers=bearer(maintain_token))
    assert response.status_code == 422
    assert {f["path"] for f in response.json()["fields"]} == {
        "findings[0].numerator.label",
        "findings[0].colour",
    }
    assert get(client, path)["items"] == []
    missing = client.put(
        "/api/v1/suites/no-such-suite/findings",
        json={"findings": []},
        headers=bearer(maintain_token),
    )
    assert missing.status_code == 404


def test_pinned_run_ids_are_the_runs_findings_pin(
    client: TestClient, session: Session, auth: dict[str, str], maintain_token: str
) -> None:
    run_id, ids = upload_pair(client, auth)
    assert client.post("/api/v1/runs", json=run(), headers=auth).status_code == 201
    assert pinned_run_ids(session) == set()
    body = {"findings": [finding(run_id, ids["async-time_per_op"], ids["sync-time_per_op"])]}
    path = f"/api/v1/suites/{SUITE}/findings"
    assert client.put(path, json=body, headers=bearer(maintain_token)).is_success
    assert {str(r) for r in pinned_run_ids(session)} == {run_id}


def test_a_maintainer_sets_and_clears_study_metadata(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    assert client.post("/api/v1/runs", json=run(), headers=auth).status_code == 201
    path = f"/api/v1/suites/{SUITE}"
    metadata = {
        "title": "Sync vs async I/O",
        "description": "Tiny writes.",
        "authors": ["A. Author", "B. Author"],
        "links": [{"label": "Article", "url": "https://example.org/post"}],
    }
    response = client.put(path, json=metadata, headers=bearer(maintain_token))
    assert response.status_code == 200, response.text
    study = get(client, f"{path}/study")
    assert {k: study[k] for k in metadata} == metadata
    assert get(client, "/api/v1/suites")["items"][0]["title"] == "Sync vs async I/O"
    cleared = {"title": None, "links": None}
    assert client.put(path, json=cleared, headers=bearer(maintain_token)).is_success
    study = get(client, f"{path}/study")
    assert study["title"] == "Dart tiny file writes"  # its only run's name
    assert study["links"] == []
    assert study["authors"] == metadata["authors"]


def test_bad_metadata_names_the_field_and_stores_nothing(
    client: TestClient, auth: dict[str, str], maintain_token: str, upload_token: str
) -> None:
    assert client.post("/api/v1/runs", json=run(), headers=auth).status_code == 201
    path = f"/api/v1/suites/{SUITE}"
    body = {
        "title": "New",
        "links": [{"label": "x", "url": "javascript:alert(1)"}],
        "authors": [""],
    }
    response = client.put(path, json=body, headers=bearer(maintain_token))
    assert response.status_code == 422
    assert {f["path"] for f in response.json()["fields"]} == {"links[0].url", "authors[0]"}
    assert client.put(path, json={"title": "New"}, headers=bearer(upload_token)).status_code == 403
    assert client.put(path, json={"title": "New"}).status_code == 401
    assert get(client, path)["title"] is None


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        ({"title": "Sync\x00 vs async"}, "title"),
        ({"description": "\x00"}, "description"),
        ({"authors": ["A. Author", "B.\x00Author"]}, "authors[1]"),
        ({"links": [{"label": "Art\x00icle", "url": "https://example.org"}]}, "links[0].label"),
        ({"links": [{"label": "Article", "url": "https://example.org/\x00"}]}, "links[0].url"),
    ],
)
def test_nul_in_study_metadata_is_422_and_stores_nothing(
    client: TestClient,
    auth: dict[str, str],
    maintain_token: str,
    sent: dict[str, Any],
    field: str,
) -> None:
    assert client.post("/api/v1/runs", json=run(), headers=auth).status_code == 201
    path = f"/api/v1/suites/{SUITE}"
    # Sent beside good settings: none of them may be stored either.
    body = {"default_branch": "trunk", "title": "New", "authors": ["C. Author"], **sent}
    response = client.put(path, json=body, headers=bearer(maintain_token))
    assert response.status_code == 422, response.text
    assert [f["path"] for f in response.json()["fields"]] == [field]
    stored = get(client, path)
    assert (stored["default_branch"], stored["title"], stored["description"]) == (
        "main",
        None,
        None,
    )
    assert (stored["authors"], stored["links"]) == ([], [])


def test_findings_with_replicates_get_a_95_percent_interval(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    results = [
        result(mode="sync", value=50.0, samples=[48.0, 50.0, 52.0, 49.0, 51.0]),
        result(mode="async", value=100.0, samples=[96.0, 104.0, 100.0, 98.0, 102.0]),
    ]
    body = run(results=results)
    assert client.post("/api/v1/runs", json=body, headers=auth).status_code == 201
    ids = {s["mode"]: s["id"] for s in get(client, "/api/v1/series", suite=SUITE)["items"]}
    pinned = {"findings": [finding(body["id"], ids["async"], ids["sync"])]}
    path = f"/api/v1/suites/{SUITE}/findings"
    assert client.put(path, json=pinned, headers=bearer(maintain_token)).is_success
    (found,) = get(client, path)["items"]
    interval = found["interval"]
    assert (interval["method"], interval["level"]) == ("delta_log", 0.95)
    assert found["ratio"] == pytest.approx(2.0)
    assert interval["low"] < found["ratio"] < interval["high"]
    assert interval["high"] / interval["low"] < 1.1
