"""The upload's COPY writes the types the migrated `result` table has."""

from sqlalchemy import Engine, text

from benchboard.runs.service import RESULT_COPY


def test_result_copy_types_match_the_table(engine: Engine) -> None:
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT column_name, udt_name FROM information_schema.columns"
                " WHERE table_name = :table"
            ),
            {"table": RESULT_COPY.table},
        ).all()
    # information_schema names an array type by its element with a leading underscore.
    table_types = {name: f"{udt[1:]}[]" if udt.startswith("_") else udt for name, udt in rows}
    assert [table_types[column] for column in RESULT_COPY.columns] == list(RESULT_COPY.types)
