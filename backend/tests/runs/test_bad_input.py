"""Bad uploads: a clear error naming the field, and nothing of the upload stored."""

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.models import Hardware, Result, Run, Series
from tests.builders import result, run


def _without(key: str) -> dict[str, Any]:
    body = run()
    del body[key]
    return body


def _result_without(key: str) -> dict[str, Any]:
    body = result()
    del body[key]
    return run(results=[body])


def _hours_from_now(hours: float) -> str:
    return (datetime.now(UTC) + timedelta(hours=hours)).isoformat()


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"x": value}
    return value


# (case id, body, the JSON path the error must name)
CASES: list[tuple[str, Any, str]] = [
    ("missing results", _without("results"), "results"),
    ("empty results", run(results=[]), "results"),
    ("results not a list", run(results={"a": 1}), "results"),
    ("missing suite", _without("suite"), "suite"),
    ("suite not a slug", run(suite="Sync vs Async!"), "suite"),
    ("suite with capitals", run(suite="Sync"), "suite"),
    ("suite too long", run(suite="a" * 101), "suite"),
    ("missing started_at", _without("started_at"), "started_at"),
    ("timestamp without offset", run(started_at="2025-03-20T12:00:00"), "started_at"),
    ("timestamp not a date", run(started_at="yesterday"), "started_at"),
    ("non-uuid id", run(id="run-1"), "id"),
    ("missing hardware", _without("hardware"), "hardware"),
    ("hardware without name", run(hardware={"cpu": "x"}), "hardware.name"),
    ("hardware nested value", run(hardware={"name": "m", "extra": {"a": 1}}), "hardware"),
    ("environment not strings", run(environment={"dart": 3}), "environment.dart"),
    ("tags nested", run(tags={"a": {"b": "c"}}), "tags.a"),
    ("unknown top-level field", run(colour="red"), "colour"),
    ("missing benchmark", _result_without("benchmark"), "results[0].benchmark"),
    ("missing value", _result_without("value"), "results[0].value"),
    ("missing unit", _result_without("unit"), "results[0].unit"),
    ("missing metric", _result_without("metric"), "results[0].metric"),
    ("missing language", _result_without("language"), "results[0].language"),
    ("unknown unit", run(results=[result(unit="fortnights")]), "results[0].unit"),
    ("value is a string", run(results=[result(value="1.5")]), "results[0].value"),
    ("value is a boolean", run(results=[result(value=True)]), "results[0].value"),
    ("value is null", run(results=[result(value=None)]), "results[0].value"),
    ("mode other than sync/async", run(results=[result(mode="parallel")]), "results[0].mode"),
    ("direction unknown", run(results=[result(direction="up")]), "results[0].direction"),
    ("language upper case", run(results=[result(language="Dart")]), "results[0].language"),
    ("benchmark empty", run(results=[result(benchmark="")]), "results[0].benchmark"),
    ("benchmark too long", run(results=[result(benchmark="b" * 201)]), "results[0].benchmark"),
    ("unicode name too long", run(results=[result(variant="é" * 201)]), "results[0].variant"),
    ("params nested", run(results=[result(params={"a": {"b": 1}})]), "results[0].params.a"),
    (
        "params nested deeper",
        run(results=[result(params={"a": _nested(20)})]),
        "results[0].params.a",
    ),
    (
        "params huge",
        run(results=[result(params={f"k{i}": i for i in range(1000)})]),
        "results[0].params",
    ),
    ("params list value", run(results=[result(params={"a": [1, 2]})]), "results[0].params.a"),
    ("stats unknown key", run(results=[result(stats={"p42": 1.0})]), "results[0].stats.p42"),
    ("stats string", run(results=[result(stats={"min": "1"})]), "results[0].stats.min"),
    (
        "stats negative stddev",
        run(results=[result(stats={"stddev": -1.0})]),
        "results[0].stats.stddev",
    ),
    ("sample is a string", run(results=[result(samples=[1.0, "2"])]), "results[0].samples[1]"),
    ("samples over 100,000", run(results=[result(samples=[1.0] * 100_001)]), "results[0].samples"),
    ("unknown result field", run(results=[result(colour="red")]), "results[0].colour"),
    ("NUL in a name", run(results=[result(benchmark="a\x00b")]), "results[0].benchmark"),
    ("NUL in the run name", run(name="\x00"), "name"),
    ("NUL in a tag value", run(tags={"os": "linux\x00"}), "tags.os"),
    ("NUL in a tag key", run(tags={"o\x00s": "linux"}), "tags"),
    ("NUL in a param key", run(results=[result(params={"\x00": 1})]), "results[0].params"),
    ("NUL in a param value", run(results=[result(params={"k": "a\x00"})]), "results[0].params.k"),
    ("NUL in a metric", run(results=[result(metric="t\x00")]), "results[0].metric"),
    ("NUL in a variant", run(results=[result(variant="\x00")]), "results[0].variant"),
    (
        "NUL in a later result's implementation",
        run(results=[result(), result(benchmark="b2", implementation="x\x00")]),
        "results[1].implementation",
    ),
    ("NUL in git.branch", run(git={"branch": "main\x00"}), "git.branch"),
    ("NUL in git.commit", run(git={"commit": "\x00"}), "git.commit"),
    ("NUL in a hardware extra", run(hardware={"name": "m", "kernel": "6\x00"}), "hardware"),
    ("value beyond 1e150", run(results=[result(value=1e200)]), "results[0].value"),
    ("sample beyond 1e150", run(results=[result(samples=[1.0, -1e300])]), "results[0].samples[1]"),
    ("stats.n beyond 64 bits", run(results=[result(stats={"n": 2**64})]), "results[0].stats.n"),
    ("cores beyond 64 bits", run(hardware={"name": "m", "cores": 2**63}), "hardware.cores"),
    ("hardware extra beyond 1e150", run(hardware={"name": "m", "gflops": 1e200}), "hardware"),
    ("param beyond 1e150", run(results=[result(params={"n": 10**151})]), "results[0].params.n"),
    ("started_at 25 h ahead", run(started_at=_hours_from_now(25)), "started_at"),
    ("started_at before 1900", run(started_at="0001-01-01T00:00:00+14:00"), "started_at"),
    (
        "error deep in the list",
        run(
            results=[result(benchmark=f"b{i}") for i in range(5)]
            + [result(benchmark="b5", value="x")]
        ),
        "results[5].value",
    ),
]


def post_raw(
    client: TestClient,
    content: bytes | str,
    auth: dict[str, str],
    content_type: str = "application/json",
) -> Any:
    return client.post(
        "/api/v1/runs", content=content, headers={"Content-Type": content_type, **auth}
    )


def assert_nothing_stored(session: Session) -> None:
    for table in (Run, Result, Series, Hardware):
        assert session.scalar(select(func.count()).select_from(table)) == 0, table.__name__


@pytest.mark.parametrize(
    ("body", "path"), [(body, path) for _, body, path in CASES], ids=[case for case, _, _ in CASES]
)
def test_bad_field_is_422_naming_it(
    client: TestClient, auth: dict[str, str], session: Session, body: Any, path: str
) -> None:
    response = post_raw(client, json.dumps(body), auth)
    assert response.status_code == 422, response.text
    envelope = response.json()
    assert envelope["error"] == "validation_error"
    assert path in [field["path"] for field in envelope["fields"]], envelope
    assert path in envelope["message"] or len(envelope["fields"]) > 5
    assert_nothing_stored(session)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_value_is_422(
    client: TestClient, auth: dict[str, str], session: Session, literal: str
) -> None:
    text = json.dumps(run()).replace('"value": 119.898', f'"value": {literal}')
    response = post_raw(client, text, auth)
    assert response.status_code == 422
    assert response.json()["fields"][0] == {
        "path": "results[0].value",
        "message": "Input should be a finite number",
    }
    assert_nothing_stored(session)


def test_every_bad_field_is_listed(client: TestClient, auth: dict[str, str]) -> None:
    body = run(suite="Bad Suite", results=[result(value="x"), result(unit="parsecs")])
    paths = {field["path"] for field in post_raw(client, json.dumps(body), auth).json()["fields"]}
    assert paths == {"suite", "results[0].value", "results[1].unit"}


def test_duplicate_series_in_one_run_is_422(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    body = run(results=[result(), result(benchmark="other"), result(value=1.0)])
    response = post_raw(client, json.dumps(body), auth)
    assert response.status_code == 422
    (field,) = response.json()["fields"]
    assert field["path"] == "results[2]"
    assert "results[0]" in field["message"]
    assert_nothing_stored(session)


def test_100001_results_are_422(
    client: TestClient, auth: dict[str, str], session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = json.dumps(result())
    text = json.dumps(run(results=[])).replace(
        '"results": []', f'"results": [{",".join([one] * 100_001)}]'
    )
    monkeypatch.setattr(client.app.state.settings, "max_body_bytes", 64 * 1024 * 1024)  # type: ignore[attr-defined]
    response = post_raw(client, text, auth)
    assert response.status_code == 422
    assert "results" in [field["path"] for field in response.json()["fields"]]
    assert_nothing_stored(session)


@pytest.mark.parametrize("content", [b"{", b"", b"[1, 2", b"\xff\xfe", b"null x"])
def test_malformed_json_is_400(
    client: TestClient, auth: dict[str, str], session: Session, content: bytes
) -> None:
    response = post_raw(client, content, auth)
    assert response.status_code == 400
    assert response.json()["error"] == "malformed_body"
    assert response.json()["fields"][0]["path"] == "(body)"
    assert_nothing_stored(session)


def test_json_that_is_not_an_object_is_422(client: TestClient, auth: dict[str, str]) -> None:
    response = post_raw(client, "[1, 2]", auth)
    assert response.status_code == 422


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", ""])
def test_wrong_content_type_is_415(
    client: TestClient, auth: dict[str, str], session: Session, content_type: str
) -> None:
    response = post_raw(client, json.dumps(run()), auth, content_type=content_type)
    assert response.status_code == 415
    assert "Content-Type" in response.json()["message"]
    assert_nothing_stored(session)


def test_nesting_past_the_depth_limit_is_422_naming_the_body(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    body = run(results=[result(params={"a": _nested(500)})])
    response = post_raw(client, json.dumps(body), auth)
    assert response.status_code == 422
    assert [field["path"] for field in response.json()["fields"]] == ["(body)"]
    assert_nothing_stored(session)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('"benchmark": "\\ud800x"', "results[0].benchmark"),
        ('"benchmark": "x\\udfff"', "results[0].benchmark"),
        ('"params": {"\\udc00": 1}', "results[0].params"),
    ],
)
def test_unpaired_surrogate_is_422_naming_the_field(
    client: TestClient, auth: dict[str, str], session: Session, text: str, path: str
) -> None:
    body = json.dumps(run(results=[result(benchmark="b", params={"k": 1})]))
    key = text.split(":")[0]
    original = '"benchmark": "b"' if key == '"benchmark"' else '"params": {"k": 1}'
    response = post_raw(client, body.replace(original, text), auth)
    assert response.status_code == 422, response.text
    fields = response.json()["fields"]
    assert [field["path"] for field in fields] == [path]
    assert "surrogate" in fields[0]["message"]
    assert_nothing_stored(session)


def test_surrogate_in_a_batch_names_the_run(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    body = json.dumps({"runs": [run(), run(name="n")]}).replace('"name": "n"', '"name": "\\ud83d"')
    response = client.post(
        "/api/v1/runs/batch", content=body, headers={"Content-Type": "application/json", **auth}
    )
    assert response.status_code == 422, response.text
    assert [field["path"] for field in response.json()["fields"]] == ["runs[1].name"]
    assert_nothing_stored(session)


def test_started_at_within_a_day_ahead_is_stored(
    client: TestClient, auth: dict[str, str], session: Session
) -> None:
    response = post_raw(client, json.dumps(run(started_at=_hours_from_now(23))), auth)
    assert response.status_code == 201, response.text
