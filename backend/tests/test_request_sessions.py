"""The service's own database sessions, as create_app opens them."""

from sqlalchemy import Engine, text

from benchboard.config import Settings
from benchboard.main import create_app


def test_request_sessions_plan_no_parallel_workers(settings: Settings, engine: Engine) -> None:
    given = engine.url.update_query_dict({"options": "-c lock_timeout=200ms"})
    app = create_app(settings, database_url=given.render_as_string(hide_password=False))
    parallel = text("SHOW max_parallel_workers_per_gather")
    with app.state.engine.connect() as requests_connection, engine.connect() as other:
        assert requests_connection.scalar(parallel) == "0"
        assert requests_connection.scalar(text("SHOW lock_timeout")) == "200ms"  # kept
        assert other.scalar(parallel) != "0"  # the CLI's and the worker's keep the default
    app.state.engine.dispose()
