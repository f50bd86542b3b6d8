"""The git repository, commit and branch of the working directory, when there is one."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit


def has_user_info(url: str) -> bool:
    """Whether a URL carries a user or a password (`https://gitlab-ci-token:<job token>@…`).

    scp-style remotes (`git@github.com:acme/app.git`) have no authority part: a user
    name there is never a secret, and they are left as they are."""
    parts = urlsplit(url)
    return bool(parts.netloc) and "@" in parts.netloc


def without_user_info(url: str) -> str:
    """The URL without its user info: a CI job's clone URL holds the job's token."""
    if not has_user_info(url):
        return url
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def _git(*args: str, cwd: str | None) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    output = done.stdout.strip()
    return output if done.returncode == 0 and output else None


def capture_git(cwd: str | None = None) -> dict[str, str]:
    """Contract `git`: repo (origin URL, without user info), commit, branch; empty outside
    a repository."""
    origin = _git("config", "--get", "remote.origin.url", cwd=cwd)
    found = {
        "repo": without_user_info(origin) if origin else None,
        "commit": _git("rev-parse", "HEAD", cwd=cwd),
        "branch": _git("rev-parse", "--abbrev-ref", "HEAD", cwd=cwd),
    }
    return {key: value for key, value in found.items() if value and value != "HEAD"}


def ci_git(environ: Mapping[str, str]) -> dict[str, str]:
    """What the CI says it builds: GitHub Actions and GitLab CI variables.

    A pull request's branch is GITHUB_HEAD_REF (GITHUB_REF_NAME is then `42/merge`);
    on a push it is GITHUB_REF_NAME. GitLab names the branch in CI_COMMIT_REF_NAME.
    """
    github_branch = environ.get("GITHUB_HEAD_REF") or (
        environ.get("GITHUB_REF_NAME")
        if environ.get("GITHUB_REF_TYPE", "branch") == "branch"
        else None
    )
    github_repo = (
        f"{environ['GITHUB_SERVER_URL']}/{environ['GITHUB_REPOSITORY']}"
        if environ.get("GITHUB_SERVER_URL") and environ.get("GITHUB_REPOSITORY")
        else None
    )
    found = {
        "repo": without_user_info(github_repo or environ.get("CI_PROJECT_URL") or "") or None,
        "commit": environ.get("GITHUB_SHA") or environ.get("CI_COMMIT_SHA"),
        "branch": github_branch or environ.get("CI_COMMIT_REF_NAME"),
    }
    return {key: value for key, value in found.items() if value}
