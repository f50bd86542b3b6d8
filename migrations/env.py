"""Alembic environment: the URL comes from the caller (benchboard.migrate), never a file."""

from alembic import context
from sqlalchemy import create_engine

from benchboard.models import Base
from benchboard.partitions import include_in_schema

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    url = config.get_main_option("sqlalchemy.url")
    assert url, "benchboard.migrate sets sqlalchemy.url"
    connectable = config.attributes.get("connection") or create_engine(url)
    if hasattr(connectable, "connect"):
        with connectable.connect() as connection:
            _run(connection)
    else:
        _run(connectable)


def _run(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        compare_server_default=False,
        include_object=include_in_schema,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
