"""The upload's bulk writes (COPY of results, unnest inserts of runs and series) name
columns of the migrated tables and send the types those columns have."""

import pytest
from sqlalchemy import Engine, text

from benchboard.bulk import CopyLayout
from benchboard.runs.resolve import SERIES_COPY
from benchboard.runs.store import RESULT_COPY, RUN_COPY


@pytest.mark.parametrize(
    "layout", [RESULT_COPY, RUN_COPY, SERIES_COPY], ids=lambda layout: layout.table
)
def test_layout_types_match_the_table(engine: Engine, layout: CopyLayout) -> None:
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT column_name, udt_name FROM information_schema.columns"
                " WHERE table_name = :table"
            ),
            {"table": layout.table},
        ).all()
    # information_schema names an array type by its element with a leading underscore.
    table_types = {name: f"{udt[1:]}[]" if udt.startswith("_") else udt for name, udt in rows}
    assert [table_types.get(column) for column in layout.columns] == list(layout.types)
