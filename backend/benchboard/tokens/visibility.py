"""Which suites a read may show: the public ones, and the private ones its token covers.

The one rule every read applies: a service filters its query with `Viewer.shows(column)`
(a suite-name column) and answers a direct id of a hidden suite with `Viewer.require`,
a 404, so that the suite's existence does not leak. Private suites are few: the hidden
set is read once per request (one indexed query), and with none the filter is `true`.
"""

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Select, select, true
from sqlalchemy.orm import QueryableAttribute, Session

from benchboard.errors import NotFound
from benchboard.models import Regression, Run, Series, Suite
from benchboard.tokens.service import Principal


@dataclass(frozen=True)
class Viewer:
    """The reader's principal (None: anonymous) and the suites hidden from it."""

    principal: Principal | None
    hidden: frozenset[str]

    def sees(self, suite: str) -> bool:
        return suite not in self.hidden

    def require(self, suite: str, what: str) -> None:
        """404 for what belongs to a hidden suite: the same answer as for no such thing."""
        if suite in self.hidden:
            raise NotFound(f"no {what}")

    def shows(self, column: ColumnElement[Any] | QueryableAttribute[Any]) -> ColumnElement[bool]:
        """SQL: the suite in `column` is visible (null, e.g. a machine's annotation, is)."""
        if not self.hidden:
            return true()
        return column.is_(None) | column.not_in(sorted(self.hidden))


# The service's own reads on a suite's behalf (its notifications, its feed): every suite.
SERVICE = Viewer(principal=None, hidden=frozenset())


def viewer_of(
    session: Session, principal: Principal | None, private: frozenset[str] | None
) -> Viewer:
    """The private suites `principal` does not cover are hidden from it. `private`: their
    names if read already (with the data version, caching.py), else they are read here."""
    if private is None:
        private = frozenset(
            session.scalars(select(Suite.name).where(Suite.visibility == "private"))
        )
    readable = principal is not None and principal.may("read")
    hidden = frozenset(s for s in private if not (readable and principal and principal.covers(s)))
    return Viewer(principal=principal, hidden=hidden)


def _run_id(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


def _row_id(value: str) -> int | None:
    return int(value) if value.isdigit() and 0 < int(value) < 2**63 else None


def _suite_of_run(value: str) -> Select[Any] | None:
    run_id = _run_id(value)
    return None if run_id is None else select(Run.suite).where(Run.id == run_id)


def _suite_of_series(value: str) -> Select[Any] | None:
    series_id = _row_id(value)
    return None if series_id is None else select(Series.suite).where(Series.id == series_id)


def _suite_of_regression(value: str) -> Select[Any] | None:
    regression_id = _row_id(value)
    if regression_id is None:
        return None
    return (
        select(Series.suite)
        .join(Regression, Regression.series_id == Series.id)
        .where(Regression.id == regression_id)
    )


# Parameters (path or query) that name one thing of one suite, by name: a route with one
# of these answers 404 for a hidden suite's thing before it runs, so no route can forget.
# A new kind of id gets its line here.
_SUITE_OF: dict[str, Callable[[str], Select[Any] | None]] = {
    "run_id": _suite_of_run,
    "baseline": _suite_of_run,
    "contender": _suite_of_run,
    "series_id": _suite_of_series,
    "regression_id": _suite_of_regression,
}


def hide_private_ids(
    session: Session, viewer: Viewer, path: Mapping[str, str], query: Mapping[str, str]
) -> None:
    """404 when the path names a hidden suite, or a parameter one of its runs, series or
    changes. (A `?suite=` filter is left to the lists, which answer it with nothing, as
    for a suite that does not exist; malformed values to the route's validation.)"""
    if not viewer.hidden:
        return
    suite = path.get("suite")
    if suite is not None:
        viewer.require(suite, f"suite {suite!r}")
    given = {**query, **path}
    for name, suite_of in _SUITE_OF.items():
        value = given.get(name)
        lookup = suite_of(value) if value is not None else None
        owner = session.scalar(lookup) if lookup is not None else None
        if owner is not None:
            viewer.require(owner, f"{name.replace('_', ' ')} {value}")
