"""Crowds (issue 26): a study page's reads at 8, 64, 256 and 1,024 open connections.

    flock /work/bench.lock .venv/bin/python bench/read_load.py [--seconds 15] [--url URL]

Starts `benchboard serve` as `make run` does (two uvicorn workers, one detection worker,
the demo studies, embedded PostgreSQL under .data/bench/read_load), unless `--url` names
a running service. wrk (Debian's `wrk`) then drives the reads a browser makes for one
study page, each connection cycling through them: the page's HTML, its script, the
study, the suite list, the suite's facets, series and sync/async pairs, and one series'
history. Each level runs `--seconds`; per level it prints requests/s (all answers and
2xx only), p50/p99/max latency, non-2xx answers by status, socket errors and timeouts,
and GET /api/v1/health's latency from a new connection right after the level and 5 s
later. The machine's load average is printed before each level.
"""

import argparse
import json
import os
import re
import resource
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from common import BenchService, exit_cleanly_on_sigterm, machine_summary, print_table

LEVELS = (8, 64, 256, 1024)
HEALTH_TIMEOUT_S = 20.0
RECOVERY_LIMIT_S = 120.0
LATER_S = 5.0
# Chrome's: the answers are compressed as a browser's would be.
ACCEPT_ENCODING = "gzip, deflate, br, zstd"

# One Lua state per wrk thread: each cycles through the paths (given after `--`) from its
# own starting point, and counts answers by status; done() merges the threads' counts.
WRK_SCRIPT = """
local paths, next_path, threads = {}, 1, {}
statuses = {}  -- a global: thread:get() reads globals only
function setup(thread) table.insert(threads, thread) end
function init(args)
  for i, path in ipairs(args) do paths[i] = path end
  next_path = math.random(#paths)
end
function request()
  local path = paths[next_path]
  next_path = next_path % #paths + 1
  return wrk.format("GET", path, {["Accept-Encoding"] = "ACCEPT_ENCODING"})
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency, requests)
  local merged = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do
      merged[tostring(status)] = (merged[tostring(status)] or 0) + n
    end
  end
  local parts = {}
  for status, n in pairs(merged) do table.insert(parts, string.format('"%s":%d', status, n)) end
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"connect":%d,"read":%d,"write":%d,"timeout":%d,"statuses":{%s}}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    latency.max, e.connect, e.read, e.write, e.timeout, table.concat(parts, ",")))
end
""".replace("ACCEPT_ENCODING", ACCEPT_ENCODING)


@dataclass
class Level:
    connections: int
    load: str
    result: dict[str, Any]
    health_now_s: float | None
    health_later_s: float | None


def study_mix(base_url: str, suite: str | None) -> list[str]:
    """The paths one study page reads, found on the running service."""
    with httpx.Client(base_url=base_url, timeout=30) as client:
        suites = client.get("/api/v1/suites").raise_for_status().json()["items"]
        name = suite or suites[0]["suite"]
        html = client.get(f"/studies/{name}").raise_for_status().text
        script = re.search(r'src="(/assets/[^"]+\.js)"', html)
        assert script, "the built index.html names no script"
        series = client.get("/api/v1/series", params={"suite": name}).raise_for_status()
        first_series = series.json()["items"][0]["id"]
    return [
        f"/studies/{name}",
        script.group(1),
        f"/api/v1/suites/{name}/study",
        "/api/v1/suites",
        f"/api/v1/facets?suite={name}",
        f"/api/v1/series?suite={name}",
        f"/api/v1/series/{first_series}/history?max_points=1000",
        f"/api/v1/compare/modes?suite={name}",
    ]


def health_latency(base_url: str) -> float | None:
    """Seconds GET /api/v1/health took on a new connection; None if no 200 in time."""
    started = time.perf_counter()
    try:
        answer = httpx.get(f"{base_url}/api/v1/health", timeout=HEALTH_TIMEOUT_S)
    except httpx.HTTPError:
        return None
    return time.perf_counter() - started if answer.status_code == 200 else None


def run_level(
    base_url: str, paths: list[str], script: Path, connections: int, args: argparse.Namespace
) -> Level:
    load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    command = [
        "wrk",
        *("-t", str(min(args.threads, connections)), "-c", str(connections)),
        *("-d", f"{args.seconds}s", "--timeout", f"{args.timeout}s", "-s", str(script)),
        base_url,
        "--",
        *paths,
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=args.seconds + 60, check=True
    )
    ended = time.monotonic()
    line = next(row for row in done.stdout.splitlines() if row.startswith("RESULT "))
    probes: dict[str, float | None] = {}

    def probe(key: str, at: float) -> None:
        time.sleep(max(0.0, at - time.monotonic()))
        probes[key] = health_latency(base_url)

    threads = [
        threading.Thread(target=probe, args=("now", ended)),
        threading.Thread(target=probe, args=("later", ended + LATER_S)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result = json.loads(line.removeprefix("RESULT "))
    return Level(connections, load, result, probes["now"], probes["later"])


def wait_recovered(base_url: str) -> float:
    """Seconds until health answers within 1 s again (capped at RECOVERY_LIMIT_S)."""
    started = time.monotonic()
    while time.monotonic() - started < RECOVERY_LIMIT_S:
        latency = health_latency(base_url)
        if latency is not None and latency < 1.0:
            break
        time.sleep(1.0)
    return time.monotonic() - started


def _ms(microseconds: float) -> str:
    return f"{microseconds / 1000:.0f} ms" if microseconds < 10_000_000 else "> 10 s"


def _probe(seconds: float | None) -> str:
    return f"> {HEALTH_TIMEOUT_S:.0f} s" if seconds is None else f"{seconds * 1000:.0f} ms"


def report(levels: list[Level]) -> None:
    rows = []
    for level in levels:
        result = level.result
        seconds = result["duration_us"] / 1e6
        statuses: dict[str, int] = result["statuses"]
        ok = sum(n for status, n in statuses.items() if status.startswith("2"))
        other = ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items()) if s[0] != "2")
        errors = f"{result['connect']}/{result['read']}/{result['write']}/{result['timeout']}"
        rows.append(
            [
                str(level.connections),
                f"{result['requests'] / seconds:.0f}",
                f"{ok / seconds:.0f}",
                _ms(result["p50_us"]),
                _ms(result["p99_us"]),
                _ms(result["max_us"]),
                other or "0",
                errors,
                _probe(level.health_now_s),
                _probe(level.health_later_s),
                level.load,
            ]
        )
    print_table(
        [
            "conns",
            "req/s",
            "2xx/s",
            "p50",
            "p99",
            "max",
            "non-2xx",
            "conn/read/write/timeout",
            "health after",
            "health +5 s",
            "load before",
        ],
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running service; default: start one as `make run`")
    parser.add_argument("--suite", help="the study to read; default: the first listed")
    parser.add_argument("--seconds", type=int, default=15, help="per level")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--timeout", type=int, default=10, help="wrk's request timeout, s")
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)))
    parser.add_argument(
        "--set", action="append", default=[], metavar="VAR=VALUE", help="a service setting"
    )
    args = parser.parse_args()
    exit_cleanly_on_sigterm()
    # 1,024 connections and the service's side of them: more descriptors than the default.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"{machine_summary()}; uptime: {subprocess.check_output(['uptime'], text=True)}")
    if args.url:
        measure(args.url, args)
        return
    with BenchService("read_load") as service:
        env = {"BENCHBOARD_DEMO": "true"}
        env.update(setting.split("=", 1) for setting in args.set)
        process = service.spawn(["serve"], env)
        service.wait_healthy(service.base_url, process)
        shown = " ".join(f"{key}={value}" for key, value in env.items())
        print(f"service: {shown} benchboard serve on {service.base_url}")
        measure(service.base_url, args)


def measure(base_url: str, args: argparse.Namespace) -> None:
    paths = study_mix(base_url, args.suite)
    print("mix:", " ".join(paths))
    levels: list[Level] = []
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "study.lua"
        script.write_text(WRK_SCRIPT)
        counts = [int(count) for count in args.levels.split(",")]
        for index, connections in enumerate(counts):
            levels.append(run_level(base_url, paths, script, connections, args))
            print(f"{connections} connections: {levels[-1].result}", flush=True)
            if index < len(counts) - 1:
                print(f"  recovered in {wait_recovered(base_url):.1f} s", flush=True)
    report(levels)


if __name__ == "__main__":
    main()
