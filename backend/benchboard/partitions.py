"""`result` is partitioned by month of `started_at`; the service keeps the partitions.

Monthly: a month holds 1-30 million results for a busy CI (Perfherder's million a day),
small enough to index and vacuum apart and to drop whole when it ages out (retention),
and a history of a few years is a few dozen partitions, which the planner prunes to the
months a series ran in (series.first_started_at / last_started_at bound every read).

Uploads never run DDL (it would wait on, and block, other uploads' locks). A run outside
every month (a history import from years ago, a clock far ahead) lands in
`result_default`; `maintain_partitions` moves such rows into their own months. It runs
whenever a service process migrates at start (`serve`, `worker`, `db upgrade`) and
hourly in every detection worker, and creates the months from the current one to
MONTHS_AHEAD ahead, so new results always have their month ready.
"""

import logging
import re
from collections.abc import Iterable
from datetime import UTC, date, datetime

from sqlalchemy import Connection, text

logger = logging.getLogger(__name__)

MONTHS_AHEAD = 3
DEFAULT_PARTITION = "result_default"
_MONTHLY = re.compile(r"^result_p(\d{4})(\d{2})$")
PARTITION_LOCK = 0x70617274  # "part": one maintainer at a time
# DDL here waits for in-flight uploads (ATTACH checks the FKs to run and series): if
# they are slow, give up quickly and try at the next round rather than stall uploads.
LOCK_TIMEOUT = "3s"


def partition_name(month: date) -> str:
    return f"result_p{month.year:04d}{month.month:02d}"


def is_result_partition(table: str) -> bool:
    return table == DEFAULT_PARTITION or _MONTHLY.match(table) is not None


def include_in_schema(
    item: object, name: str | None, type_: str, reflected: bool, compare_to: object
) -> bool:
    """Alembic's filter: the partitions of `result` are this module's, not the models'."""
    return not (type_ == "table" and reflected and name is not None and is_result_partition(name))


def month_of(moment: datetime | date) -> date:
    if isinstance(moment, datetime):
        moment = moment.astimezone(UTC)
    return date(moment.year, moment.month, 1)


def next_month(month: date) -> date:
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


def monthly_partitions(connection: Connection) -> dict[date, str]:
    """The months that have their partition."""
    names = connection.execute(
        text(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
            " WHERE i.inhparent = 'result'::regclass"
        )
    ).scalars()
    months = {}
    for name in names:
        if match := _MONTHLY.match(name):
            months[date(int(match[1]), int(match[2]), 1)] = name
    return months


def maintain_partitions(connection: Connection, *, today: date | None = None) -> list[str]:
    """Create the partitions of the coming months and of the rows in the default
    partition (moving them there), in the caller's transaction; the names created."""
    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PARTITION_LOCK})
    connection.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
    month = month_of(today or datetime.now(UTC))
    wanted = {month}
    for _ in range(MONTHS_AHEAD):
        month = next_month(month)
        wanted.add(month)
    wanted |= {
        month_of(moment)
        for moment in connection.execute(
            text("SELECT DISTINCT date_trunc('month', started_at, 'UTC') FROM result_default")
        ).scalars()
    }
    return create_months(connection, wanted)


def create_months(connection: Connection, months: Iterable[date]) -> list[str]:
    """The partitions of these months that are missing (with the default partition's
    rows of those months moved in); the names created."""
    missing = sorted(set(months) - monthly_partitions(connection).keys())
    for month in missing:
        _create_month(connection, month)
    if missing:
        logger.info("created partitions of result: %s", ", ".join(map(partition_name, missing)))
    return [partition_name(month) for month in missing]


def months_between(first: datetime, last: datetime) -> list[date]:
    """Every month from the one of `first` to the one of `last`."""
    months = [month_of(first)]
    while months[-1] < month_of(last):
        months.append(next_month(months[-1]))
    return months


# {name}: a name made of a date; the bounds are parameters.
_MOVE = (
    "INSERT INTO {name} SELECT * FROM result_default"
    " WHERE started_at >= CAST(:low AS timestamptz) AND started_at < CAST(:high AS timestamptz)"
)
_OUT_OF_DEFAULT = text(
    "DELETE FROM result_default"
    " WHERE started_at >= CAST(:low AS timestamptz) AND started_at < CAST(:high AS timestamptz)"
)


def _create_month(connection: Connection, month: date) -> None:
    """A new month's partition, with the default partition's rows of that month."""
    name = partition_name(month)
    bounds = {"low": f"{month.isoformat()} 00:00+00", "high": f"{next_month(month)} 00:00+00"}
    connection.execute(text(f"CREATE TABLE {name} (LIKE result INCLUDING DEFAULTS)"))
    connection.execute(text(_MOVE.format(name=name)), bounds)  # a name made of a date
    connection.execute(_OUT_OF_DEFAULT, bounds)
    # ATTACH, not CREATE … PARTITION OF: it takes a weaker lock on `result` (reads and
    # uploads of other months go on).
    connection.execute(
        text(
            f"ALTER TABLE result ATTACH PARTITION {name}"
            f" FOR VALUES FROM ('{bounds['low']}') TO ('{bounds['high']}')"
        )
    )
