"""One pure parser per tool: `parse(raw, *, context) -> list[Result]`."""
