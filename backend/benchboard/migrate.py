"""Run Alembic from code, so `benchboard db upgrade` and the tests share one path."""

import logging

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

from benchboard.config import Settings
from benchboard.partitions import maintain_partitions

logger = logging.getLogger(__name__)

MIGRATION_LOCK = 0x62656E6368  # "bench"


def alembic_config(settings: Settings, url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(settings.migrations_dir))
    config.set_main_option("file_template", "%%(year)d%%(month).2d%%(day).2d_%%(slug)s")
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade_database(settings: Settings, engine: Engine) -> None:
    """Bring the schema to the newest revision; a no-op when it is there already."""
    config = alembic_config(settings, engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        # API replicas and workers may start at once: one migrates, the others then see
        # the schema at head (the lock is held until this transaction ends).
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        keep_partitions(connection)


def keep_partitions(connection: Connection) -> None:
    """Create the coming months' partitions of `result` (partitions.py); a failure (a lock
    not granted in time) is logged and left to the next round, never fatal."""
    try:
        with connection.begin_nested():
            maintain_partitions(connection)
    except DBAPIError:
        logger.warning("partitions of result not maintained this time", exc_info=True)
