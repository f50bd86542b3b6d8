"""The CI snippets of README.md (and ingest/README.md, which gives the same ones) run as
their runners run them, against the live service, so the docs cannot rot.

GitHub Actions: the job's `run` steps in order, each with its `if:` on the event, in bash
as the runner starts it: `shell: bash` is `bash --noprofile --norc -eo pipefail`, no
shell is `bash -e`; the first failing step ends the job. GitLab CI: the job's script in
one bash after the runner's own preamble (gitlab-runner shells/bash.go). The runners'
variables are set as they set them, in a git checkout as they make it: a branch on a
push, a detached merge commit for a pull request, a detached head for a merge request.

Replaced, and only because they cannot run here: the `uses:` actions, installing the CLI
(the test's environment has it; GitLab's `/opt/benchboard/bin/` is read as that), and
`go`: a stand-in prints a captured `go test -bench` output, or that output with one
benchmark twice as slow, or exits 1 as a failing benchmark does.
"""

import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from benchboard.config import REPO_ROOT
from tests.live import LiveService
from tests.tool_formats.test_cli_gate import section

READMES = (REPO_ROOT / "README.md", REPO_ROOT / "ingest" / "README.md")
GO_OUTPUT = (REPO_ROOT / "ingest" / "tests" / "fixtures" / "go" / "go_test_bench.txt").read_text()
SLOWED = "BenchmarkReadLines/readfile-split"
SUITE = "my-service"
MACHINES = ("gha-ubuntu-latest", "gitlab-shared")
CLI_BIN = Path(sys.executable).parent  # where this environment installed benchboard-ingest
GITLAB_PREAMBLE = (
    "if set -o | grep pipefail > /dev/null; then set -o pipefail; fi; set -o errexit\n"
    "set +o noclobber\n"
)
EXPRESSION = re.compile(r"\$\{\{ (?:vars|secrets)\.(\w+) \}\}")


def snippets(readme: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The README's GitHub Actions workflow and GitLab CI job (its YAML blocks)."""
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", readme.read_text(), re.S)]
    (workflow,) = [b for b in blocks if "jobs" in b]
    (gitlab,) = [b for b in blocks if "benchmarks" in b]
    return workflow, gitlab["benchmarks"]


def slower(output: str, benchmark: str) -> str:
    """The go output with every ns/op of one benchmark doubled."""

    def doubled(line: re.Match[str]) -> str:
        return re.sub(r"(\d+) ns/op", lambda m: f"{int(m[1]) * 2} ns/op", line[0])

    return re.sub(rf"^{re.escape(benchmark)}-\d+\s.*$", doubled, output, flags=re.M)


@dataclass
class Checkout:
    """The runner's working tree (a git repository) and the tools on its PATH."""

    path: Path
    bin: Path

    def git(self, *args: str) -> str:
        identity = ["-c", "user.name=ci", "-c", "user.email=ci@example.org"]
        done = subprocess.run(
            ["git", *identity, *args], cwd=self.path, capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    def commit(self, message: str) -> str:
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD")

    def branch_off(self, branch: str) -> str:
        """A commit on `branch`, made from main; the checkout is left on main."""
        self.git("checkout", "-q", "-b", branch, "main")
        head = self.commit(f"work on {branch}")
        self.git("checkout", "-q", "main")
        return head

    def go_prints(self, output: str, *, exit_code: int = 0) -> None:
        captured = self.path.parent / "go-output.txt"
        captured.write_text(output)
        go = self.bin / "go"
        go.write_text(f"#!/bin/sh\ncat '{captured}'\nexit {exit_code}\n")
        go.chmod(0o755)

    def env(self, **variables: str) -> dict[str, str]:
        return {
            "PATH": f"{self.bin}:{CLI_BIN}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.path.parent),
            "CI": "true",
            **variables,
        }


@pytest.fixture
def checkout(tmp_path: Path) -> Checkout:
    (tmp_path / "repo").mkdir()
    (tmp_path / "bin").mkdir()
    repo = Checkout(tmp_path / "repo", tmp_path / "bin")
    repo.git("init", "-q", "-b", "main")
    repo.commit("first")
    return repo


@pytest.fixture
def live(live_service: LiveService) -> LiveService:
    live_service.suites.add(SUITE)
    live_service.machines.update(MACHINES)
    return live_service


def runs_on(branch: str, live: LiveService) -> list[str]:
    params = {"suite": SUITE, "branch": branch}
    runs = httpx.get(f"{live.url}/api/v1/runs", params=params).json()["items"]
    return sorted(run["commit"] for run in runs)


def regressed(summary: str) -> list[str]:
    """The benchmarks in the summary's table of regressions."""
    return re.findall(r"^\| (Benchmark\S+)", section(summary, "Regressions"), re.M)


def test_the_two_readmes_give_the_same_ci_snippets() -> None:
    assert snippets(READMES[0]) == snippets(READMES[1])


# -- GitHub Actions ---------------------------------------------------------------------


@dataclass
class Workflow:
    job: dict[str, Any]
    checkout: Checkout
    live: LiveService

    def run(self, **variables: str) -> tuple[int, str]:
        """The job's steps for one event: the first failing step's exit code (0 if none)
        and what the steps wrote to their step summaries."""
        secrets = {"BENCHBOARD_URL": self.live.url, "BENCHBOARD_TOKEN": self.live.token}
        job_env = {
            k: EXPRESSION.sub(lambda m: secrets[m[1]], v) for k, v in self.job["env"].items()
        }
        env = self.checkout.env(GITHUB_ACTIONS="true", **variables, **job_env)
        summaries = ""
        for number, step in enumerate(self.job["steps"]):
            if "uses" in step or step["run"].startswith("pip install "):
                continue
            if not self._runs_on(step.get("if"), variables["GITHUB_EVENT_NAME"]):
                continue
            summary = self.checkout.path.parent / f"step-summary-{number}.md"
            summary.write_text("")
            shell = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]
            if step.get("shell") != "bash":
                shell = ["bash", "-e"]
            done = subprocess.run(
                [*shell, "-c", step["run"]],
                cwd=self.checkout.path,
                env={**env, "GITHUB_STEP_SUMMARY": str(summary)},
                stdin=subprocess.DEVNULL,
                capture_output=True,
                check=False,
            )
            summaries += summary.read_text()
            if done.returncode:
                return done.returncode, summaries
        return 0, summaries

    @staticmethod
    def _runs_on(condition: str | None, event: str) -> bool:
        if condition is None:
            return True
        match = re.fullmatch(r"github\.event_name == '(\w+)'", condition)
        assert match, f"this test reads `github.event_name == '…'` conditions only: {condition}"
        return match[1] == event

    def push(self) -> int:
        sha = self.checkout.commit("a change on main")
        code, _ = self.run(
            GITHUB_EVENT_NAME="push",
            GITHUB_REF="refs/heads/main",
            GITHUB_REF_NAME="main",
            GITHUB_REF_TYPE="branch",
            GITHUB_HEAD_REF="",
            GITHUB_SHA=sha,
        )
        return code

    def pull_request(self, branch: str, number: int) -> tuple[int, str, str]:
        """GitHub's checkout of a pull request: its merge commit into main, detached."""
        self.checkout.branch_off(branch)
        self.checkout.git("checkout", "-q", "--detach", "main")
        self.checkout.git("merge", "-q", "--no-ff", branch, "-m", f"Merge {branch} into main")
        merge = self.checkout.git("rev-parse", "HEAD")
        code, summary = self.run(
            GITHUB_EVENT_NAME="pull_request",
            GITHUB_REF=f"refs/pull/{number}/merge",
            GITHUB_REF_NAME=f"{number}/merge",
            GITHUB_REF_TYPE="branch",
            GITHUB_HEAD_REF=branch,
            GITHUB_BASE_REF="main",
            GITHUB_SHA=merge,
        )
        self.checkout.git("checkout", "-q", "main")
        return code, summary, merge


def test_the_github_actions_workflow_publishes_main_and_gates_pull_requests(
    live: LiveService, checkout: Checkout
) -> None:
    workflow, _ = snippets(READMES[0])
    (job,) = workflow["jobs"].values()
    ci = Workflow(job, checkout, live)
    checkout.go_prints(GO_OUTPUT)
    assert [ci.push() for _ in range(3)] == [0, 0, 0]
    assert len(runs_on("main", live)) == 3

    checkout.go_prints(slower(GO_OUTPUT, SLOWED))
    code, summary, merge = ci.pull_request("slower", 1)
    assert code == 6
    assert "Gate `--fail-on regression>5%`: **failed**" in summary
    assert regressed(summary) == [SLOWED]
    assert runs_on("slower", live) == [merge]

    checkout.go_prints(GO_OUTPUT)
    code, summary, _ = ci.pull_request("same", 2)
    assert (code, "Gate `--fail-on regression>5%`: passed." in summary) == (0, True)

    # A failing benchmark fails the job (tee's success does not hide it): nothing is sent.
    checkout.go_prints(GO_OUTPUT, exit_code=1)
    assert ci.pull_request("broken", 3)[0] == 1
    assert runs_on("broken", live) == []
    assert len(runs_on("main", live)) == 3


# -- GitLab CI --------------------------------------------------------------------------


def gitlab_pipeline(
    job: dict[str, Any], checkout: Checkout, live: LiveService
) -> Callable[..., int]:
    assert any("python3 -m venv /opt/benchboard" in line for line in job["before_script"])
    script = "\n".join(
        line.replace("/opt/benchboard/bin/", f"{CLI_BIN}/") for line in job["script"]
    )

    def run(**variables: str) -> int:
        (checkout.path / "benchmarks.md").unlink(missing_ok=True)  # a fresh clone each job
        env = checkout.env(
            GITLAB_CI="true",
            CI_DEFAULT_BRANCH="main",
            BENCHBOARD_URL=live.url,
            BENCHBOARD_TOKEN=live.token,
            **variables,
        )
        done = subprocess.run(
            ["bash", "-c", GITLAB_PREAMBLE + script],
            cwd=checkout.path,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
        return done.returncode

    return run


def test_the_gitlab_job_publishes_the_default_branch_and_gates_merge_requests(
    live: LiveService, checkout: Checkout
) -> None:
    _, job = snippets(READMES[0])
    run = gitlab_pipeline(job, checkout, live)
    checkout.go_prints(GO_OUTPUT)
    for _ in range(3):
        sha = checkout.commit("a change on main")
        checkout.git("checkout", "-q", "--detach", sha)
        default_branch = {"CI_COMMIT_BRANCH": "main", "CI_COMMIT_REF_NAME": "main"}
        assert run(CI_PIPELINE_SOURCE="push", CI_COMMIT_SHA=sha, **default_branch) == 0
        checkout.git("checkout", "-q", "main")
    assert len(runs_on("main", live)) == 3

    def merge_request(branch: str) -> int:
        head = checkout.branch_off(branch)
        checkout.git("checkout", "-q", "--detach", head)
        code = run(
            CI_PIPELINE_SOURCE="merge_request_event",
            CI_COMMIT_REF_NAME=branch,
            CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=branch,
            CI_MERGE_REQUEST_TARGET_BRANCH_NAME="main",
            CI_COMMIT_SHA=head,
        )
        assert runs_on(branch, live) == [head]
        return code

    checkout.go_prints(slower(GO_OUTPUT, SLOWED))
    assert merge_request("slower") == 6
    summary = (checkout.path / "benchmarks.md").read_text()
    assert regressed(summary) == [SLOWED]
    checkout.go_prints(GO_OUTPUT)
    assert merge_request("same") == 0
    assert (
        "Gate `--fail-on regression>5%`: passed." in (checkout.path / "benchmarks.md").read_text()
    )
