"""Engine and sessions. The request owns the transaction: commit on success, else roll back."""

from collections.abc import Iterator

from fastapi import Request
from sqlalchemy import URL, Engine, create_engine, make_url
from sqlalchemy.orm import Session, sessionmaker

from benchboard import exact_json
from benchboard.replica import reads_replica

# Requests' sessions plan no parallel workers: their queries are index-driven and short,
# and starting a worker (5-9 ms on two busy cores) cost more than it saved where the
# planner chose one (compare/modes over 20,000 series at 100,000,000 results).
REQUEST_SESSION_OPTIONS = "-c max_parallel_workers_per_gather=0"
# Admission control keeps requests from queueing here (admission.py); should the pool run
# dry all the same, a request gets a quick 503 rather than the default 30 s wait.
REQUEST_POOL_TIMEOUT_S = 2.0


def make_engine(url: str, *, serves_requests: bool = False) -> Engine:
    # jsonb columns parsed by orjson: the standard library's json.loads took a third of a
    # 300-pair compare/modes answer (exact_json leaves it only for integers past 64 bits).
    return create_engine(
        _with_options(url, REQUEST_SESSION_OPTIONS) if serves_requests else url,
        pool_size=10,
        max_overflow=10,
        pool_timeout=REQUEST_POOL_TIMEOUT_S if serves_requests else 30.0,
        pool_pre_ping=True,
        json_deserializer=exact_json.loads,
    )


def _with_options(url: str, options: str) -> URL:
    """`url` with `options` after the server options it already gives (`?options=`)."""
    target = make_url(url)
    given = target.query.get("options", ())
    return target.update_query_dict(
        {"options": " ".join([*([given] if isinstance(given, str) else given), options])}
    )


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def get_session(request: Request) -> Iterator[Session]:
    factory: sessionmaker[Session] = request.app.state.session_factory
    if reads_replica(request.scope) and request.app.state.read_session_factory is not None:
        factory = request.app.state.read_session_factory
    with factory() as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
