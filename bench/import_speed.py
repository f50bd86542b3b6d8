"""History import speed (GitHub issue 15): `benchboard-ingest import` of the peers' real
histories, and of one large synthetic one, against the service as `make run` starts it.

    .venv/bin/python bench/import_speed.py

Starts its own service (embedded PostgreSQL under .data/bench/import, re-created on each
invocation, 2 workers, change detection on, port chosen free on 127.0.0.1), then runs the
CLI as a user would, one process per history: every github-action-benchmark `data.js` and
both asv result directories of ../shared/tool-outputs/interop, then a synthetic gab history
of 2,000 entries x 20 benches (40,000 results). Each import runs twice: the second sends
the same runs and must add nothing. Figures are the CLI's wall time (process start to
exit: reading, checking, every batch answered) and its own summary line.
"""

import json
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from common import REPO_ROOT, BenchService, exit_cleanly_on_sigterm, machine_summary, print_table

INTEROP = REPO_ROOT.parent / "shared" / "tool-outputs" / "interop"
CLI = REPO_ROOT / ".venv" / "bin" / "benchboard-ingest"
GAB = ("--hardware-name", "gh-runner")
SYNTHETIC_ENTRIES = 2_000
SYNTHETIC_BENCHES = 20


@dataclass(frozen=True)
class Job:
    label: str
    format: str
    path: Path
    flags: tuple[str, ...]


def jobs(synthetic: Path) -> list[Job]:
    gab = INTEROP / "gab"
    language = {
        "mountpoint-s3_customSmallerIsBetter_latency_data.js": "rust",
        "mountpoint-s3_cargo-then-customBiggerIsBetter_data.js": "rust",
        "iroh-http_customBiggerIsBetter_data.js": "javascript",
        "gha-bench-test_edge_string-values_missing-unit_data.js": "python",
    }
    found = [
        Job(
            path.name,
            "gab",
            path,
            GAB + (("--language", language[path.name]) if path.name in language else ()),
        )
        for path in sorted(gab.glob("*.js"))
    ]
    found += [
        Job(f"asv {project}", "asv", INTEROP / "asv" / project / "results", ())
        for project in ("pvlib-benchmarks", "metpy-fork")
    ]
    return [*found, Job("synthetic 2,000 x 20 (gab cargo)", "gab", synthetic, GAB)]


def write_synthetic(folder: Path) -> Path:
    """A gab history shaped like a busy project's: one entry per CI run, cargo benches."""
    rng = random.Random(15)
    entries = []
    for index in range(SYNTHETIC_ENTRIES):
        benches = [
            {
                "name": f"bench_{b}",
                "value": round(1000 + b * 10 + rng.gauss(0, 5)),
                "unit": "ns/iter",
            }
            for b in range(SYNTHETIC_BENCHES)
        ]
        commit = {
            "id": f"{index:040x}",
            "message": f"change {index}",
            "url": f"https://example.org/{index}",
        }
        entries.append(
            {
                "commit": commit,
                "date": 1_600_000_000_000 + index * 3_600_000,
                "tool": "cargo",
                "benches": benches,
            }
        )
    history = {
        "lastUpdate": 0,
        "repoUrl": "https://example.org/synthetic",
        "entries": {"Benchmark": entries},
    }
    path = folder / "data.js"
    path.write_text("window.BENCHMARK_DATA = " + json.dumps(history))
    return path


def timed_import(
    service: BenchService, token: str, job: Job, suite: str
) -> tuple[float, dict[str, object]]:
    argv = [str(CLI), "import", job.format, str(job.path), "--suite", suite, *job.flags]
    argv += ["--url", service.base_url, "--token", token, "--quiet"]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stderr}")
    summary: dict[str, object] = json.loads(done.stdout)
    return seconds, summary


def main() -> int:
    exit_cleanly_on_sigterm()
    if not INTEROP.is_dir():
        print(f"{INTEROP} is absent: nothing to import")
        return 1
    print(f"machine: {machine_summary()}")
    with BenchService("import") as service, tempfile.TemporaryDirectory() as folder:
        service.cli("db", "reset", "--yes")
        service.start()
        token = service.create_token("import-bench")
        rows = []
        for index, job in enumerate(jobs(write_synthetic(Path(folder)))):
            suite = f"import-{index}"
            first_s, first = timed_import(service, token, job, suite)
            again_s, again = timed_import(service, token, job, suite)
            assert again["created"] == 0, again
            rows.append(
                [
                    job.label,
                    str(first["runs"]),
                    f"{first['results']:,}",
                    str(first["skipped"]),
                    str(first["batches"]),
                    f"{first_s:.2f}",
                    f"{again_s:.2f}",
                ]
            )
        print_table(
            ["history", "runs", "results", "skipped", "batches", "import s", "again s"], rows
        )
        print("\n".join(service.commands[:2]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
