"""pairing index on a hashed key: a new series costs a third of what it did

`ix_series_pairing` led with the pairing key's six columns as they are (benchmark,
language, suite, branch, machine, metric), then the mode and the params' hashes. Each new
series inserted ~90 bytes at a random place in it: 8-12 us a series, the largest part of
why an upload of 100,000 new series was 13 % slower than before issue 25. The six columns
are now one hash (`pairing_key_hash()`, an inlined SQL expression, as `param_keys_hash`):
3-5 us a series, and the same lookups, one descent for a partner with equal params and the
two ranges around its params' keys. The queries compare the columns themselves too, so a
collision of the hash costs a row read, never a wrong pair.

Revision ID: 5c8e2a7d9f14
Revises: 3b7e9d1f5a20
Create Date: 2026-12-07 08:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5c8e2a7d9f14"
down_revision: str | None = "3b7e9d1f5a20"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The unit separator (31) cannot occur in a name: it keeps ("a", "bc") apart from ("ab", "c").
_PAIRING_KEY_HASH = """
CREATE FUNCTION pairing_key_hash(
    suite text, branch text, benchmark text, language text, hardware_id integer, metric text
) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT hashtextextended(suite || chr(31) || branch || chr(31) || benchmark || chr(31)
      || language || chr(31) || hardware_id::text || chr(31) || metric, 0)
$$
"""

_HASHED = [
    sa.text("pairing_key_hash(suite, branch, benchmark, language, hardware_id, metric)"),
    "mode",
    sa.text("param_keys_hash(params)"),
    sa.text("jsonb_hash_extended(params, 0)"),
]
_COLUMNS = [
    "benchmark",
    "language",
    "suite",
    "branch",
    "hardware_id",
    "metric",
    "mode",
    sa.text("param_keys_hash(params)"),
    sa.text("jsonb_hash_extended(params, 0)"),
]


def upgrade() -> None:
    op.execute(_PAIRING_KEY_HASH)
    op.drop_index("ix_series_pairing", table_name="series")
    op.create_index("ix_series_pairing", "series", _HASHED)


def downgrade() -> None:
    op.drop_index("ix_series_pairing", table_name="series")
    op.create_index("ix_series_pairing", "series", _COLUMNS)
    op.execute("DROP FUNCTION pairing_key_hash(text, text, text, text, integer, text)")
