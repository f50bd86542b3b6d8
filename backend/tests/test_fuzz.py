"""Schemathesis against the live service: requests generated from our own OpenAPI schema,
with an upload token, then a maintain token, then an admin token, must never get a 5xx
nor an answer that breaks the documented schema.

The service runs as `benchboard serve` runs it, on a database of its own (what fuzzing
commits must not meet the other tests). A modest number of examples per operation
(BENCHBOARD_FUZZ_EXAMPLES) keeps it to a few minutes on two cores; on failure the output
names each failing case with a curl command and the seed to replay it.

Routes that take an id (a regression's triage, an annotation's edit and deletion, a
run's deletion, a token's revocation) get real ones: the test stores a history with a
detected change, an annotation to edit and one to delete, a run and a token to delete,
and passes their ids to schemathesis as fixed path parameters; otherwise every id it
generates is a 404 (and a token id it chose might be its own). The summary lists the PATCH and
DELETE routes that answered 2xx (the service's own request metrics).

The seed is fixed (BENCHBOARD_FUZZ_SEED), so a commit fuzzes the same way in every build
and a red build replays exactly; set another seed, or more examples, to search further.
"""

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.database_server import recreate_database
from benchboard.db import make_engine
from benchboard.migrate import upgrade_database
from benchboard.models import ApiToken
from benchboard.tokens.service import create_token
from tests.builders import result, run
from tests.history_builder import STEPPED
from tests.processes import free_port, processes, service_env, wait_for

MAX_EXAMPLES = int(os.environ.get("BENCHBOARD_FUZZ_EXAMPLES", "10"))
SEED = int(os.environ.get("BENCHBOARD_FUZZ_SEED", "20261123"))
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
BATCH = "/api/v1/runs/batch"
WRITES = [
    arg for method in ("POST", "PUT", "PATCH", "DELETE") for arg in ("--include-method", method)
]
# What only an admin token may do; the other passes reach it only as far as its 403.
ADMIN_ONLY = ["--include-name", "DELETE /api/v1/runs/{run_id}"]


@pytest.fixture
def fuzz_engine(settings: Settings) -> Iterator[Engine]:
    own = settings.model_copy(update={"database_name": "benchboard_fuzz"})
    engine = make_engine(recreate_database(own))
    upgrade_database(own, engine)
    yield engine
    engine.dispose()


def _schemathesis(
    base: str,
    token: str,
    config: Path,
    *selection: str,
    phases: str = "examples,coverage,fuzzing",
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            str(SCHEMATHESIS),
            "--config-file",
            str(config),
            "run",
            f"{base}/openapi.json",
            "--header",
            f"Authorization: Bearer {token}",
            "--checks",
            "not_a_server_error,response_schema_conformance",
            "--phases",
            phases,
            "--max-examples",
            str(MAX_EXAMPLES),
            "--seed",
            str(SEED),
            # One worker: with two, schemathesis' own generator has tripped (a Hypothesis
            # FlakyFailure inside it, not an answer of ours).
            "--workers",
            "1",
            "--request-timeout",
            "120",
            "--no-color",
            *selection,
        ],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )


def test_no_generated_request_gets_a_server_error(
    fuzz_engine: Engine, tmp_path: Path, report_figure: Callable[[str], None]
) -> None:
    with Session(fuzz_engine) as session:
        upload = create_token(session, name="fuzz-upload", scope="upload")
        maintain = create_token(session, name="fuzz-maintain", scope="maintain")
        admin = create_token(session, name="fuzz-admin", scope="admin")
        # The one token the fuzzer may revoke: any other id it chose might be its own.
        create_token(session, name="fuzz-revoked", scope="read")
        session.commit()
        revoked = session.scalars(select(ApiToken.id).where(ApiToken.name == "fuzz-revoked")).one()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = service_env(fuzz_engine, port=str(port), workers="1", detect_workers="1")
    with processes(tmp_path) as start:
        start(["serve"], env)
        wait_for("the service", lambda: _healthy(base))
        config = tmp_path / "schemathesis.toml"
        config.write_text(_real_ids(base, upload=upload, maintain=maintain, revoked=revoked))
        # Every operation with the upload token; the writes again with the maintain token,
        # which reaches triage, annotations and suite settings (reads answer either alike;
        # a batch is refused that token). Batches get every phase too: the coverage phase's
        # batch of the most runs allowed (5,000) is stored in seconds, set-based. Last the
        # admin operations with an admin token, so they are fuzzed past their 403.
        for name, outcome in (
            ("upload token, every operation", _schemathesis(base, upload, config)),
            (
                "maintain token, writes",
                _schemathesis(base, maintain, config, "--exclude-path", BATCH, *WRITES),
            ),
            ("admin token, admin operations", _schemathesis(base, admin, config, *ADMIN_ONLY)),
        ):
            report_figure(f"fuzz ({name}, seed {SEED}): {_summary(outcome.stdout)}")
            assert outcome.returncode == 0, outcome.stdout[-20_000:] + outcome.stderr[-5_000:]
        reached = _writes_answered_2xx(base)
        report_figure(f"fuzz reached with real ids (2xx): {', '.join(sorted(reached))}")
        assert {
            "PATCH /api/v1/regressions/{regression_id}",
            "PATCH /api/v1/annotations/{annotation_id}",
            "DELETE /api/v1/annotations/{annotation_id}",
            "DELETE /api/v1/runs/{run_id}",
            "DELETE /api/v1/tokens/{token_id}",
        } <= reached


def _real_ids(base: str, *, upload: str, maintain: str, revoked: int) -> str:
    """Store what the id-taking routes need, through the API; schemathesis' configuration
    that fixes those path parameters to it."""
    with httpx.Client(base_url=base, timeout=60) as http:
        for day, value in enumerate(STEPPED):
            body = run(started_at=f"2025-01-{1 + day:02d}T00:00:00Z", results=[result(value=value)])
            answer = http.post("/api/v1/runs", json=body, headers=_bearer(upload))
            assert answer.status_code == 201, answer.text
        change = wait_for("a detected change", lambda: _first_regression(http))
        notes = [
            http.post(
                "/api/v1/annotations",
                json={"series_id": change["series"]["id"], "at": body["started_at"], "text": text},
                headers=_bearer(maintain),
            ).json()["id"]
            for text in ("edited by the fuzzer", "deleted by the fuzzer")
        ]
        doomed = run(suite="fuzz-deletion")
        assert http.post("/api/v1/runs", json=doomed, headers=_bearer(upload)).status_code == 201
    return f"""
[parameters]
"path.regression_id" = {change["id"]}
"path.series_id" = {change["series"]["id"]}

[[operations]]
include-name = "PATCH /api/v1/annotations/{{annotation_id}}"
parameters = {{ "path.annotation_id" = {notes[0]} }}

[[operations]]
include-name = "DELETE /api/v1/annotations/{{annotation_id}}"
parameters = {{ "path.annotation_id" = {notes[1]} }}

[[operations]]
include-name = "DELETE /api/v1/runs/{{run_id}}"
parameters = {{ "path.run_id" = "{doomed["id"]}" }}

[[operations]]
include-name = "DELETE /api/v1/tokens/{{token_id}}"
parameters = {{ "path.token_id" = {revoked} }}
"""


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _first_regression(http: httpx.Client) -> dict[str, Any] | None:
    items: list[dict[str, Any]] = http.get("/api/v1/regressions").json()["items"]
    return items[0] if items else None


_REQUEST_COUNT = re.compile(
    r'benchboard_http_request_seconds_count\{method="(PATCH|DELETE)",route="([^"]+)",status="2\d\d"\}'
)


def _writes_answered_2xx(base: str) -> set[str]:
    """The PATCH and DELETE routes the service answered with a 2xx, from its metrics."""
    metrics = httpx.get(f"{base}/metrics", timeout=30).text
    return {f"{method} {route}" for method, route in _REQUEST_COUNT.findall(metrics)}


def _summary(output: str) -> str:
    """schemathesis' count of cases and closing line, e.g. '1602 generated, 1602 passed;
    2 warnings in 61.21s'."""
    lines = output.splitlines()
    closing = [line for line in lines if line.startswith("=") and " in " in line]
    if not closing:
        return output[-500:]
    counted = [after.strip() for line, after in pairwise(lines) if line == "Test cases:"]
    return "; ".join([*counted[-1:], closing[-1].strip("= ")])


def _healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/api/v1/health", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False
