"""Published figures (issue 30): latency of charts and badges as `make run` serves them.

    flock /work/bench.lock .venv/bin/python bench/figure_speed.py [--requests 40] [--url URL]

Starts `benchboard serve` as `make run` does (two uvicorn workers, one detection worker,
the demo studies, embedded PostgreSQL under .data/bench/figure_speed), unless `--url`
names a running service. One client asks, one request at a time, for the longest demo
series' chart (SVG and PNG, 800 × 400), its badge, the first finding's chart and the
first study's sharing card:

- drawn: every request a URL not asked before (the width steps by one pixel), so the
  service draws each answer (no kept answer, caching.py);
- kept: the same URL again, answered from the kept answers while nothing is written;
- 304: the same URL with its ETag in If-None-Match.

Prints p50, p95 and max per kind, and the load average before each. Targets: SVG p95
≤ 100 ms, PNG p95 ≤ 250 ms drawn.
"""

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import httpx
from common import BenchService, exit_cleanly_on_sigterm, machine_summary, percentile, print_table


def _timed(client: httpx.Client, path: str, headers: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    response = client.get(path, headers=headers)
    elapsed = (time.perf_counter() - started) * 1000
    if response.status_code not in (200, 304):
        raise SystemExit(f"{path}: {response.status_code} {response.text[:200]}")
    return elapsed


def _figures(client: httpx.Client) -> dict[str, Callable[[int], str]]:
    """Each figure's URL for the i-th request (a new width each time)."""
    series: list[dict[str, Any]] = client.get("/api/v1/series", params={"limit": 5000}).json()[
        "items"
    ]
    longest = max(series, key=lambda s: s["run_count"])["id"]
    suites = client.get("/api/v1/suites").json()["items"]
    finding = next(s["first_finding"] for s in suites if s["first_finding"])
    study = suites[0]["suite"]
    return {
        "series chart.svg": lambda i: f"/api/v1/series/{longest}/chart.svg?width={800 + i}",
        "series chart.png": lambda i: f"/api/v1/series/{longest}/chart.png?width={800 + i}",
        "finding chart.svg": lambda i: (
            f"/api/v1/findings/{finding['id']}/chart.svg?width={800 + i}"
        ),
        "finding chart.png": lambda i: (
            f"/api/v1/findings/{finding['id']}/chart.png?width={800 + i}"
        ),
        # The badge and card take no size: one drawn answer (the first), then kept ones.
        "badge.svg": lambda i: f"/api/v1/series/{longest}/badge.svg",
        "card.png (1200×630)": lambda i: f"/api/v1/suites/{study}/card.png",
    }


def measure(base_url: str, requests: int) -> None:
    rows = []
    with httpx.Client(base_url=base_url, timeout=30) as client:
        for name, url in _figures(client).items():
            load = f"{os.getloadavg()[0]:.2f}"
            if url(0) == url(1):  # one URL: its first answer is the one drawn
                drawn = [_timed(client, url(0))]
            else:
                _timed(client, url(-1))  # the worker's first figure loads matplotlib's fonts
                drawn = [_timed(client, url(i)) for i in range(requests)]
            kept = [_timed(client, url(0)) for _ in range(requests)]
            etag = client.get(url(0)).headers["etag"]
            not_modified = [
                _timed(client, url(0), {"If-None-Match": etag}) for _ in range(requests)
            ]
            for kind, times in (("drawn", drawn), ("kept", kept), ("304", not_modified)):
                rows.append(
                    [
                        name,
                        kind,
                        str(len(times)),
                        f"{percentile(times, 50):.1f}",
                        f"{percentile(times, 95):.1f}",
                        f"{max(times):.1f}",
                        load,
                    ]
                )
    print_table(["figure", "answer", "n", "p50 ms", "p95 ms", "max ms", "load before"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running service; default: start one as `make run`")
    parser.add_argument("--requests", type=int, default=40, help="per figure and kind")
    args = parser.parse_args()
    exit_cleanly_on_sigterm()
    print(f"{machine_summary()}; load average {os.getloadavg()}")
    if args.url:
        measure(args.url, args.requests)
        return
    with BenchService("figure_speed") as service:
        process = service.spawn(["serve"], {"BENCHBOARD_DEMO": "true"})
        service.wait_healthy(service.base_url, process)
        print(f"service: BENCHBOARD_DEMO=true benchboard serve on {service.base_url}")
        measure(service.base_url, args.requests)


if __name__ == "__main__":
    main()
