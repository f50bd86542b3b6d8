"""The git repository, commit and branch of the working directory, when there is one."""

from __future__ import annotations

import subprocess


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
    """Contract `git`: repo (origin URL), commit, branch; empty outside a repository."""
    found = {
        "repo": _git("config", "--get", "remote.origin.url", cwd=cwd),
        "commit": _git("rev-parse", "HEAD", cwd=cwd),
        "branch": _git("rev-parse", "--abbrev-ref", "HEAD", cwd=cwd),
    }
    return {key: value for key, value in found.items() if value and value != "HEAD"}
