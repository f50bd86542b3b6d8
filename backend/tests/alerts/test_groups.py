"""Alert groups through HTTP: one commit's changes are one group, triaged in one PATCH."""

from typing import Any

from fastapi.testclient import TestClient

from tests.alerts.commit_history import SLOWED, STEP_AT, commit, upload_commits


def groups(client: TestClient, **params: Any) -> list[dict[str, Any]]:
    response = client.get("/api/v1/alert-groups", params=params)
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def detail(client: TestClient, group_id: int) -> dict[str, Any]:
    response = client.get(f"/api/v1/alert-groups/{group_id}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_commit_that_slows_50_of_60_series_is_one_group_of_those_50(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload_commits(client, auth, machine="machine-a")
    (group,) = groups(client)
    assert (group["cause"], group["commit"], group["changes"]) == ("commit", commit(STEP_AT), 50)
    assert group["by_direction"] == {"regression": 50}
    assert group["by_status"] == {"untriaged": 50}
    assert group["machines"] == ["machine-a"]
    assert group["worst"]["relative_change"] > 0.25
    members = detail(client, group["id"])["members"]
    assert sorted(m["series"]["benchmark"] for m in members) == SLOWED
    assert all(m["evidence"] is not None and m["group_id"] == group["id"] for m in members)


def test_the_same_commit_from_another_machine_joins_the_group(
    client: TestClient, auth: dict[str, str]
) -> None:
    upload_commits(client, auth, machine="machine-a")
    upload_commits(client, auth, machine="machine-b")
    (group,) = groups(client)
    assert group["changes"] == 100
    assert group["machines"] == ["machine-a", "machine-b"]
    (on_b,) = groups(client, machine="machine-b")
    assert on_b["id"] == group["id"]
    assert groups(client, machine="machine-c") == []


def test_one_patch_triages_the_whole_group_with_an_audit_event_each(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    upload_commits(client, auth, machine="machine-a")
    (group,) = groups(client)
    first = detail(client, group["id"])["members"][0]["id"]
    # One change triaged on its own beforehand keeps its own triage.
    response = client.patch(
        f"/api/v1/regressions/{first}", json={"status": "wontfix"}, headers=bearer(maintain_token)
    )
    assert response.status_code == 200, response.text
    response = client.patch(
        f"/api/v1/alert-groups/{group['id']}",
        json={"status": "investigating", "note": "bisecting", "links": ["https://example.org/1"]},
        headers=bearer(maintain_token),
    )
    assert response.status_code == 200, response.text
    assert response.json()["by_status"] == {"investigating": 49, "wontfix": 1}
    assert groups(client, status="untriaged") == []
    for member in response.json()["members"]:
        events = client.get(f"/api/v1/regressions/{member['id']}/history").json()["items"]
        if member["id"] == first:
            assert member["status"] == "wontfix"
            assert len(events) == 2
            continue
        assert (member["note"], member["links"]) == ("bisecting", ["https://example.org/1"])
        assert events[-1]["actor"] == "test-maintain"
        assert events[-1]["changes"]["status"] == ["untriaged", "investigating"]


def test_group_triage_needs_a_maintain_token_and_a_valid_body(
    client: TestClient, auth: dict[str, str], upload_token: str, maintain_token: str
) -> None:
    upload_commits(client, auth, machine="machine-a")
    (group,) = groups(client)
    url = f"/api/v1/alert-groups/{group['id']}"
    assert client.patch(url, json={"status": "fixed"}).status_code == 401
    assert (
        client.patch(url, json={"status": "fixed"}, headers=bearer(upload_token)).status_code == 403
    )
    bad = client.patch(url, json={"status": "closed"}, headers=bearer(maintain_token))
    assert (bad.status_code, bad.json()["fields"][0]["path"]) == (422, "status")
    assert groups(client, status="untriaged")[0]["by_status"] == {"untriaged": 50}
    missing = client.patch(
        "/api/v1/alert-groups/999999", json={"status": "fixed"}, headers=bearer(maintain_token)
    )
    assert missing.status_code == 404


def test_a_change_set_apart_leaves_the_group_and_can_join_it_again(
    client: TestClient, auth: dict[str, str], maintain_token: str
) -> None:
    upload_commits(client, auth, machine="machine-a")
    (group,) = groups(client)
    member = detail(client, group["id"])["members"][-1]["id"]
    url = f"/api/v1/regressions/{member}/group"
    apart = client.put(url, json={"group_id": None}, headers=bearer(maintain_token))
    assert apart.status_code == 200, apart.text
    own = apart.json()["group_id"]
    assert own != group["id"]
    by_id = {g["id"]: g for g in groups(client)}
    assert (by_id[group["id"]]["changes"], by_id[own]["changes"], by_id[own]["cause"]) == (
        49,
        1,
        "apart",
    )
    back = client.put(url, json={"group_id": group["id"]}, headers=bearer(maintain_token))
    assert back.json()["group_id"] == group["id"]
    assert [g["id"] for g in groups(client)] == [group["id"]]
    events = client.get(f"/api/v1/regressions/{member}/history").json()["items"]
    assert [e["changes"].get("group") for e in events[-2:]] == [
        [group["id"], own],
        [own, group["id"]],
    ]
    # Who moved it: the token's id beside its name, as for every triage.
    assert [(e["actor"], e["token_id"] is not None) for e in events[-2:]] == [
        ("test-maintain", True),
        ("test-maintain", True),
    ]
    wrong = client.put(url, json={"group_id": 999999}, headers=bearer(maintain_token))
    assert (wrong.status_code, wrong.json()["fields"][0]["path"]) == (422, "group_id")


def test_groups_page_with_a_cursor(client: TestClient, auth: dict[str, str]) -> None:
    for suite in ("suite-a", "suite-b", "suite-c"):
        upload_commits(client, auth, machine="machine-a", suite=suite)
    seen: list[int] = []
    params: dict[str, Any] = {"limit": 2}
    while True:
        page = client.get("/api/v1/alert-groups", params=params).json()
        seen += [g["id"] for g in page["items"]]
        if page["next_cursor"] is None:
            break
        params["cursor"] = page["next_cursor"]
    assert len(set(seen)) == 3
    assert [g["suite"] for g in groups(client, suite="suite-b")] == ["suite-b"]
