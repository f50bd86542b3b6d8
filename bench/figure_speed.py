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

Then the drawing alone in this process (publication/history_chart.py, 800 × 400 histories of 20,
200 and 2,000 runs): CPU time per figure, which a loaded machine inflates far less than
wall time; with `--draw-only` that part alone, no service.
"""

import argparse
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from common import BenchService, exit_cleanly_on_sigterm, machine_summary, percentile, print_table

from benchboard.publication.canvas import IMAGE_FORMATS, Frame
from benchboard.publication.history_chart import HistoryFigure, Marker
from benchboard.publication.history_chart import draw_history as kept_draw_history

# The drawing itself, without the figures kept by what they show.
draw_history = kept_draw_history.__wrapped__


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


def measure_drawing(figures: int = 12) -> None:
    """CPU and wall ms per drawn history, in this process, each figure a new size."""
    started = datetime(2025, 1, 1, tzinfo=UTC)
    rows = []
    for runs in (20, 200, 2000):
        figure = HistoryFigure(
            title="bench: time per op",
            caption="file-write-tiny writes=10000 · dart dart:io async · machine bench",
            value_label="time_per_op (us)",
            times=tuple(started + timedelta(hours=i) for i in range(runs)),
            values=tuple(100.0 + i % 3 + (30 if i >= runs // 2 else 0) for i in range(runs)),
            markers=(Marker(started + timedelta(hours=runs // 2), "regression", "+30.0%"),),
        )
        for image_format in IMAGE_FORMATS:
            cpu, wall = [], []
            for i in range(figures + 1):
                frame = Frame(800 + i, 400, "light", image_format)
                cpu_started, wall_started = time.process_time(), time.perf_counter()
                draw_history(figure, frame)
                cpu.append((time.process_time() - cpu_started) * 1000)
                wall.append((time.perf_counter() - wall_started) * 1000)
            cpu, wall = cpu[1:], wall[1:]  # the first loads the font
            rows.append(
                [
                    f"history of {runs} runs",
                    image_format,
                    f"{percentile(cpu, 50):.1f}",
                    f"{percentile(cpu, 95):.1f}",
                    f"{percentile(wall, 50):.1f}",
                    f"{percentile(wall, 95):.1f}",
                    f"{os.getloadavg()[0]:.2f}",
                ]
            )
    print_table(
        ["drawn in process", "format", "cpu p50", "cpu p95", "wall p50", "wall p95", "load"], rows
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running service; default: start one as `make run`")
    parser.add_argument("--requests", type=int, default=40, help="per figure and kind")
    parser.add_argument("--draw-only", action="store_true", help="only the in-process drawing")
    args = parser.parse_args()
    exit_cleanly_on_sigterm()
    print(f"{machine_summary()}; load average {os.getloadavg()}")
    if args.draw_only:
        measure_drawing()
        return
    if args.url:
        measure(args.url, args.requests)
        measure_drawing()
        return
    with BenchService("figure_speed") as service:
        process = service.spawn(["serve"], {"BENCHBOARD_DEMO": "true"})
        service.wait_healthy(service.base_url, process)
        print(f"service: BENCHBOARD_DEMO=true benchboard serve on {service.base_url}")
        measure(service.base_url, args.requests)
    measure_drawing()


if __name__ == "__main__":
    main()
