"""Triage health (API and /metrics) and the suite's Atom feed of alert groups."""

import re
from typing import Any
from xml.etree import ElementTree

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.alerts.commit_history import STEP_AT, commit, upload_commits

ATOM = "{http://www.w3.org/2005/Atom}"


def health(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/v1/alert-groups/health", params={"suite": "sync-vs-async-io"})
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def gauge(client: TestClient, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", client.get("/metrics").text, re.MULTILINE)
    assert found, name
    return float(found.group(1))


def test_triage_health_counts_time_to_triage_and_the_oldest_waiting_group(
    client: TestClient, auth: dict[str, str], maintain_token: str, session: Session
) -> None:
    upload_commits(client, auth, machine="machine-a")
    # Ten changes were detected four days ago: triaged now, they miss the 3-day target.
    session.execute(
        text(
            "UPDATE regression SET created_at = created_at - interval '4 days'"
            " WHERE id IN (SELECT id FROM regression ORDER BY id LIMIT 10)"
        )
    )
    waiting = health(client)
    assert (waiting["triaged_changes"], waiting["median_time_to_triage_s"]) == (0, None)
    assert (waiting["untriaged_groups"], waiting["triaged_within_share"]) == (1, None)
    assert waiting["oldest_untriaged_group_at"] is not None
    assert gauge(client, "benchboard_triage_untriaged_groups") >= 1
    (group,) = client.get("/api/v1/alert-groups").json()["items"]
    response = client.patch(
        f"/api/v1/alert-groups/{group['id']}",
        json={"status": "acknowledged"},
        headers={"Authorization": f"Bearer {maintain_token}"},
    )
    assert response.status_code == 200, response.text
    done = health(client)
    assert (done["triaged_changes"], done["untriaged_groups"]) == (50, 0)
    assert done["triaged_within_share"] == 0.8
    assert done["median_time_to_triage_s"] is not None
    assert done["median_time_to_triage_s"] < 60
    assert done["oldest_untriaged_group_at"] is None
    assert gauge(client, "benchboard_triage_within_3_days_ratio") <= 1.0


def test_the_atom_feed_has_an_entry_per_alert_group(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload_commits(client, auth, machine="machine-a")
    response = client.get("/api/v1/suites/sync-vs-async-io/alerts.atom")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/atom+xml")
    root = ElementTree.fromstring(response.content)  # noqa: S314 (our own answer)
    (entry,) = root.findall(f"{ATOM}entry")
    title = entry.findtext(f"{ATOM}title") or ""
    assert "50 regressions" in title
    assert commit(STEP_AT)[:12] in title
    (group,) = client.get("/api/v1/alert-groups").json()["items"]
    link = entry.find(f"{ATOM}link")
    assert link is not None
    assert link.get("href", "").endswith(f"/regressions/groups/{group['id']}")
    assert client.get("/api/v1/suites/no-such-suite/alerts.atom").status_code == 404


def test_the_feed_drops_characters_xml_cannot_hold(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload_commits(client, auth, machine="machine-a", benchmark_prefix="b\x01")
    response = client.get("/api/v1/suites/sync-vs-async-io/alerts.atom")
    assert response.status_code == 200, response.text
    (entry,) = ElementTree.fromstring(response.content).findall(f"{ATOM}entry")  # noqa: S314
    assert "bench-" in (entry.findtext(f"{ATOM}content") or "")
