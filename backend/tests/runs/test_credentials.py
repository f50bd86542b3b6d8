"""No credentials stored: a `git.repo` with user info is refused, whole, naming the field."""

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchboard.models import Run
from tests.builders import run

GITLAB = "https://gitlab-ci-token:glcbt-64_s3cret@gitlab.example/group/app.git"
GITHUB = "https://x-access-token:ghs_s3cret@github.com/acme/app"


@pytest.mark.parametrize("url", [GITLAB, GITHUB, "ssh://deploy@git.example/app.git"])
def test_a_git_url_with_user_info_is_422_naming_git_repo(
    client: TestClient, session: Session, auth: dict[str, str], url: str
) -> None:
    answer = client.post("/api/v1/runs", json=run(git={"repo": url}), headers=auth)
    assert answer.status_code == 422, answer.text
    assert [field["path"] for field in answer.json()["fields"]] == ["git.repo"]
    assert "s3cret" not in answer.text
    assert session.scalar(select(func.count()).select_from(Run)) == 0


def test_a_batch_names_the_run_whose_url_carries_user_info(
    client: TestClient, session: Session, auth: dict[str, str]
) -> None:
    body = {"runs": [run(), run(git={"repo": GITLAB})]}
    answer = client.post("/api/v1/runs/batch", json=body, headers=auth)
    assert answer.status_code == 422
    assert [field["path"] for field in answer.json()["fields"]] == ["runs[1].git.repo"]
    assert session.scalar(select(func.count()).select_from(Run)) == 0


@pytest.mark.parametrize(
    "url", ["https://gitlab.example/group/app.git", "git@github.com:acme/app.git"]
)
def test_urls_without_user_info_are_kept(
    client: TestClient, auth: dict[str, str], url: str
) -> None:
    answer = client.post("/api/v1/runs", json=run(git={"repo": url}), headers=auth)
    assert answer.status_code == 201
    assert client.get(answer.json()["url"]).json()["git"]["repo"] == url
