"""The embedded PostgreSQL runs with memory settings sized for its machine (or budget),
kept across restarts of an existing cluster, and an operator's ALTER SYSTEM wins."""

from pathlib import Path

import psycopg

from benchboard.config import Settings
from benchboard.database_server import (
    MEMORY_CONF,
    _embedded_servers,
    libpq_url,
    memory_settings,
    resolve_database_url,
)

NAMES = ("shared_buffers", "effective_cache_size", "maintenance_work_mem", "work_mem")


def start(data_dir: Path, memory_mb: int) -> str:
    settings = Settings(
        database_url=None,
        data_dir=data_dir,
        database_name="memory",
        embedded_database_memory_mb=memory_mb,
    )
    return libpq_url(resolve_database_url(settings))


def stop(data_dir: Path) -> None:
    _embedded_servers.pop(str(data_dir / "pg")).cleanup()  # type: ignore[attr-defined]


def shown(url: str) -> dict[str, str]:
    with psycopg.connect(url) as conn:
        return {name: conn.execute(f"SHOW {name}").fetchone()[0] for name in NAMES}  # type: ignore[index]


def test_settings_follow_the_memory_they_are_sized_for() -> None:
    assert memory_settings(1024) == {
        "shared_buffers": "128MB",
        "effective_cache_size": "768MB",
        "maintenance_work_mem": "64MB",
        "work_mem": "4MB",
    }
    assert memory_settings(24 * 1024) == {
        "shared_buffers": "3072MB",
        "effective_cache_size": "18432MB",
        "maintenance_work_mem": "768MB",
        "work_mem": "24MB",
    }
    assert memory_settings(256 * 1024)["shared_buffers"] == "4096MB"
    assert memory_settings(256 * 1024)["work_mem"] == "32MB"


def test_embedded_server_reports_them_across_restarts(tmp_path: Path) -> None:
    # A new cluster: initdb, then its first use runs on these.
    url = start(tmp_path, 8192)
    try:
        assert shown(url) == {
            "shared_buffers": "1GB",
            "effective_cache_size": "6GB",
            "maintenance_work_mem": "256MB",
            "work_mem": "8MB",
        }
    finally:
        stop(tmp_path)

    # The same cluster started again with another budget: the new sizes, included once.
    url = start(tmp_path, 2048)
    try:
        assert shown(url) == {
            "shared_buffers": "256MB",
            "effective_cache_size": "1536MB",
            "maintenance_work_mem": "64MB",
            "work_mem": "4MB",
        }
        conf = (tmp_path / "pg" / "postgresql.conf").read_text()
        assert conf.count(f"include_if_exists = '{MEMORY_CONF}'") == 1
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET work_mem = '48MB'")
            conn.execute("ALTER SYSTEM SET shared_buffers = '192MB'")
    finally:
        stop(tmp_path)

    # The operator's ALTER SYSTEM outranks what Benchboard writes.
    url = start(tmp_path, 2048)
    try:
        assert shown(url) == {
            "shared_buffers": "192MB",
            "effective_cache_size": "1536MB",
            "maintenance_work_mem": "64MB",
            "work_mem": "48MB",
        }
    finally:
        stop(tmp_path)
