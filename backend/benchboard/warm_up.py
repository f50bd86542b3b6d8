"""What a new API process does once, before it takes its first request.

After a deploy, each process's first requests paid for work done once per process:

- FastAPI builds an included router's routes (parameter models, pydantic validators) on
  the first request that reaches the router: ~100 ms of the first facets request on a
  million series, against 7 ms for the next; the regressions router's, ~90 ms.
- SQLAlchemy compiles each statement shape on its first use, and PostgreSQL loads its
  catalog entries once per connection: a process's first series list cost ~15 ms more
  than its next (34.6 ms through HTTP, against 10-17).

So each worker builds every route and reads the dashboard's landing reads here, before
uvicorn lets it accept: the unfiltered series list and one filtered by each dimension (a
value taken from the facets: a statement shape of its own each), the facets and the
regressions list the same way, and the suites. The answers are dropped; nothing is
stored or kept.

A database that is down or slow to come up must not keep the worker from starting: the
reads give up at the first error, and are then simply cold.
"""

import logging
import time

from fastapi import FastAPI
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from benchboard.regressions.service import RegressionFilter, list_regressions
from benchboard.series.filters import DIMENSIONS, SeriesFilter
from benchboard.series.service import get_facets, list_series
from benchboard.studies.service import list_suites
from benchboard.tokens.visibility import SERVICE

log = logging.getLogger(__name__)

# The dashboard's pages ask for pages of this size.
_PAGE = 100
# The series dimensions the regressions list filters by (RegressionFilter).
_REGRESSION_DIMENSIONS = ("suite", "language", "benchmark", "hardware")


def warm_up(app: FastAPI) -> None:
    build_routes(app)
    warm_up_reads(app.state.session_factory)


def build_routes(app: FastAPI) -> None:
    """Have FastAPI build every included router's routes now rather than on the first
    request to each (FastAPI 0.16x does it lazily, per router)."""
    for route in app.router.routes:
        # Only included routers have it; a FastAPI that builds them eagerly may not.
        contexts = getattr(route, "effective_route_contexts", None)
        if contexts is not None:
            for _ in contexts():
                pass


def warm_up_reads(session_factory: sessionmaker[Session]) -> None:
    """Run the landing reads once; log how long that took, or why it stopped."""
    started = time.perf_counter()
    try:
        with session_factory() as session:
            facets = get_facets(session, SeriesFilter())
            list_series(session, SeriesFilter(), limit=_PAGE, cursor=None)
            list_regressions(session, RegressionFilter(), limit=_PAGE, cursor=None)
            for dimension in DIMENSIONS:
                values = facets.dimensions.get(dimension)
                if not values:
                    continue
                value = values[0].value
                one = SeriesFilter(**{dimension: (value,)})  # type: ignore[arg-type]
                get_facets(session, one)
                list_series(session, one, limit=_PAGE, cursor=None)
                if dimension in _REGRESSION_DIMENSIONS:
                    changes = RegressionFilter(**{dimension: value})  # type: ignore[arg-type]
                    list_regressions(session, changes, limit=_PAGE, cursor=None)
            list_suites(session, SERVICE)
            session.commit()
    except SQLAlchemyError as error:
        log.warning("warm-up reads stopped, the first requests read cold: %s", error)
        return
    log.info("warm-up reads done in %.0f ms", (time.perf_counter() - started) * 1000)
