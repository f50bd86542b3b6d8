"""History import speed (GitHub issue 15): `benchboard-ingest import` of the peers' real
histories, and of one large synthetic one, against the service as `make run` starts it.

    .venv/bin/python bench/import_speed.py [--entries 5000]

Starts its own service (embedded PostgreSQL under .data/bench/import, re-created on each
invocation, 2 workers, change detection on, port chosen free on 127.0.0.1), then runs the
CLI as a user would, one process per history: every github-action-benchmark `data.js` and
both asv result directories of ../shared/tool-outputs/interop, then a synthetic gab history
of --entries entries x 20 benches (5,000 x 20 = 100,000 results by default). Each import
runs twice: the second sends the same runs and must add nothing. Figures are the CLI's
wall time (process start to exit: reading, checking, every batch answered), the runs and
results per second of the first import, the runs the second import added (must be 0),
then each history's skipped items by reason (the CLI's `skipped_reasons`); the load
average before and after says what else the machine was doing.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from common import REPO_ROOT, BenchService, exit_cleanly_on_sigterm, machine_summary, print_table

INTEROP = REPO_ROOT.parent / "shared" / "tool-outputs" / "interop"
CLI = REPO_ROOT / ".venv" / "bin" / "benchboard-ingest"
GAB = ("--hardware-name", "gh-runner")
SYNTHETIC_BENCHES = 20
HEADERS = (
    "history",
    "runs",
    "results",
    "runs/s",
    "results/s",
    "skipped",
    "batches",
    "import s",
    "again s",
    "again new",
)


@dataclass(frozen=True)
class Job:
    label: str
    format: str
    path: Path
    flags: tuple[str, ...]


def jobs(synthetic: Path, entries: int) -> list[Job]:
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
    label = f"synthetic {entries:,} x {SYNTHETIC_BENCHES} (gab cargo)"
    return [*found, Job(label, "gab", synthetic, GAB)]


def write_synthetic(folder: Path, count: int) -> Path:
    """A gab history shaped like a busy project's: one entry per CI run, cargo benches."""
    rng = random.Random(15)
    entries = []
    for index in range(count):
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


class ImportSummary(TypedDict):
    """The JSON line `benchboard-ingest import` prints (imports/command.py)."""

    files: int
    runs: int
    results: int
    created: int
    existing: int
    batches: int
    skipped: int
    skipped_reasons: dict[str, int]
    seconds: float


def timed_import(
    service: BenchService, token: str, job: Job, suite: str
) -> tuple[float, ImportSummary]:
    argv = [str(CLI), "import", job.format, str(job.path), "--suite", suite, *job.flags]
    argv += ["--url", service.base_url, "--token", token, "--quiet"]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stderr}")
    summary: ImportSummary = json.loads(done.stdout)
    return seconds, summary


def print_skipped(skips: list[tuple[str, dict[str, int]]]) -> None:
    """Each history's skipped items, a line per reason."""
    print("\nskipped by reason (first import):")
    for label, reasons in skips:
        listed = "; ".join(f"{count} {reason}" for reason, count in reasons.items())
        print(f"  {label}: {listed or 'none'}")


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=5_000, help="synthetic history length")
    entries = parser.parse_args().entries
    exit_cleanly_on_sigterm()
    if not INTEROP.is_dir():
        print(f"{INTEROP} is absent: nothing to import")
        return 1
    print(f"machine: {machine_summary()}; load average before: {load()}")
    with BenchService("import") as service, tempfile.TemporaryDirectory() as folder:
        service.cli("db", "reset", "--yes")
        service.start()
        token = service.create_token("import-bench")
        rows = []
        skips: list[tuple[str, dict[str, int]]] = []
        synthetic = write_synthetic(Path(folder), entries)
        for index, job in enumerate(jobs(synthetic, entries)):
            suite = f"import-{index}"
            first_s, first = timed_import(service, token, job, suite)
            again_s, again = timed_import(service, token, job, suite)
            assert again["created"] == 0, again
            rows.append(
                [
                    job.label,
                    str(first["runs"]),
                    f"{first['results']:,}",
                    f"{first['runs'] / first_s:,.0f}",
                    f"{first['results'] / first_s:,.0f}",
                    str(first["skipped"]),
                    str(first["batches"]),
                    f"{first_s:.2f}",
                    f"{again_s:.2f}",
                    str(again["created"]),
                ]
            )
            reasons = first["skipped_reasons"]
            assert isinstance(reasons, dict), first
            skips.append((job.label, reasons))
        print_table(HEADERS, rows)
        print_skipped(skips)
        print(f"load average after: {load()}")
        print("\n".join(service.commands[:2]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
