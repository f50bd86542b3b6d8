"""Bulk writes on psycopg directly: binary COPY and INSERT from `unnest` with column names
and types taken from the models, and the session's driver connection for statements with
array parameters.

One upload may carry 100,000 results, and COPY is 3-5x faster than inserts for that.
The layout is derived from the mapped columns, so the store and the benchmark scripts
write exactly the columns and types that `models.py` declares.

Array parameters of that size go in binary (`%b`): psycopg dumps 100,000 timestamps in
46 ms so, in 1.1 s as text; bytea and integers gain alike.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from psycopg.adapt import Dumper
from psycopg.pq import Format
from sqlalchemy import BigInteger, DateTime, Double, Integer, LargeBinary, Text
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.types import TypeEngine

# SQLAlchemy column type -> the PostgreSQL type name psycopg's binary COPY needs.
_COPY_TYPES: tuple[tuple[type[TypeEngine[Any]], str], ...] = (
    (UUID, "uuid"),
    (BigInteger, "int8"),
    (Integer, "int4"),
    (DateTime, "timestamptz"),
    (Double, "float8"),
    (Text, "text"),
    (JSONB, "jsonb"),
    (LargeBinary, "bytea"),
)


def _copy_type(sql_type: TypeEngine[Any]) -> str:
    if isinstance(sql_type, ARRAY):
        return _copy_type(sql_type.item_type) + "[]"
    for kind, name in _COPY_TYPES:  # BigInteger before Integer: it is a subclass
        if isinstance(sql_type, kind):
            return name
    raise TypeError(f"no COPY type for {sql_type!r}")


@dataclass(frozen=True)
class CopyLayout:
    """Which columns of one table a bulk write (COPY, or INSERT from `unnest`) writes, in
    order, with their PostgreSQL types."""

    table: str
    columns: tuple[str, ...]
    types: tuple[str, ...]

    @classmethod
    def of(cls, *columns: InstrumentedAttribute[Any]) -> "CopyLayout":
        tables = {column.class_.__tablename__ for column in columns}
        if len(tables) != 1:
            raise ValueError(f"one table per COPY, not {sorted(tables)}")
        return cls(
            table=tables.pop(),
            columns=tuple(column.key for column in columns),
            types=tuple(_copy_type(column.type) for column in columns),
        )

    def statement(self) -> str:
        return f"COPY {self.table} ({', '.join(self.columns)}) FROM STDIN (FORMAT BINARY)"

    def unnest_insert(self, tail: str) -> str:
        """INSERT of rows sent as one binary array parameter (`%b`) per column, in the
        layout's order (columns of scalar types), followed by `tail` (ON CONFLICT …).
        Names and types come from the models, never from input."""
        arrays = ", ".join(f"%b::{kind}[]" for kind in self.types)
        columns = ", ".join(self.columns)
        return f"INSERT INTO {self.table} ({columns}) SELECT * FROM unnest({arrays}) {tail}"  # noqa: S608

    def write(self, conn: psycopg.Connection[Any], rows: Iterable[Sequence[Any]]) -> None:
        """COPY the rows, each a sequence in the layout's column order."""
        with conn.cursor() as cursor, cursor.copy(self.statement()) as copy:
            copy.set_types(list(self.types))
            for row in rows:
                copy.write_row(row)


def driver_connection(session: Session) -> psycopg.Connection[Any]:
    """The psycopg connection under the session, in the session's transaction."""
    driver = session.connection().connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    return driver


@dataclass(frozen=True)
class IntArray:
    """An integer array parameter in PostgreSQL's binary array format, built by NumPy.

    psycopg dumps a list element by element in Python: 53 ms of CPU for 100,000 bigints,
    and a 100,000-result upload sends five such arrays. NumPy builds the same bytes in
    about a millisecond. `int8_array` for `%b::bigint[]`, `int4_array` for `%b::int[]`.
    """

    data: bytes


class Int8Array(IntArray):
    pass


class Int4Array(IntArray):
    pass


_INT8, _INT4 = psycopg.postgres.types["int8"], psycopg.postgres.types["int4"]


def int8_array(values: Sequence[int]) -> Int8Array:
    return Int8Array(_binary_array(values, ">i8", _INT8.oid))


def int4_array(values: Sequence[int]) -> Int4Array:
    return Int4Array(_binary_array(values, ">i4", _INT4.oid))


def _binary_array(values: Sequence[int], dtype: str, element_oid: int) -> bytes:
    """One dimension from 1, no NULLs; each element its length, then its big-endian bytes."""
    if not values:  # zero dimensions: the empty array
        return np.array([0, 0, element_oid], ">u4").tobytes()
    elements = np.empty(len(values), [("size", ">i4"), ("value", dtype)])
    elements["size"] = np.dtype(dtype).itemsize
    elements["value"] = values
    header = np.array([1, 0, element_oid, len(values), 1], ">u4").tobytes()
    return header + elements.tobytes()


def _dumper(array_oid: int) -> type[Dumper]:
    class ArrayDumper(Dumper):
        format = Format.BINARY
        oid = array_oid

        def dump(self, obj: IntArray) -> bytes:
            return obj.data

    return ArrayDumper


# For every connection made after this module is imported (psycopg copies the global map
# into each new connection).
psycopg.adapters.register_dumper(Int8Array, _dumper(_INT8.array_oid))
psycopg.adapters.register_dumper(Int4Array, _dumper(_INT4.array_oid))
