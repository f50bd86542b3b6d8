"""pairing index of async series only: a sync series is never looked up as a partner

compare/modes.py looks up the async partners of a page's sync series, never a sync
series' own entry, so `ix_series_pairing` holds async series alone (partial on
`mode = 'async'`, the mode no longer a column of it). A sync series, or one without a
mode (most tools' output), costs an upload nothing in it: the index and the JSON path of
`param_keys_hash()` were ~3 us of each new series.

Revision ID: 8d4b1f6e2a73
Revises: 5c8e2a7d9f14
Create Date: 2026-12-07 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "8d4b1f6e2a73"
down_revision: str | None = "5c8e2a7d9f14"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEY = sa.text("pairing_key_hash(suite, branch, benchmark, language, hardware_id, metric)")
_PARAMS = [sa.text("param_keys_hash(params)"), sa.text("jsonb_hash_extended(params, 0)")]


def upgrade() -> None:
    op.drop_index("ix_series_pairing", table_name="series")
    op.create_index(
        "ix_series_pairing", "series", [_KEY, *_PARAMS], postgresql_where=sa.text("mode = 'async'")
    )


def downgrade() -> None:
    op.drop_index("ix_series_pairing", table_name="series")
    op.create_index("ix_series_pairing", "series", [_KEY, "mode", *_PARAMS])
