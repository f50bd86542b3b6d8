"""A suite's title from its runs' names."""

import os

MIN_TITLE = 12


def suite_title(names: list[str | None]) -> str | None:
    """What the suite's runs are called in common ("Study X (8 cores)", "Study X (40 cores)"
    → "Study X"), the name of its only named run, else None: a suite is never titled by
    one of many runs ("nightly #6")."""
    named = sorted({name for name in names if name})
    return shared_title(common_prefix(named), several=len(named) > 1) if named else None


def shared_title(common: str, *, several: bool) -> str | None:
    """The title of runs whose names share `common` (the whole name when there is only
    one distinct name)."""
    if not several:
        return common
    trimmed = common.rstrip(" ([-–—:,")
    return trimmed if len(trimmed) >= MIN_TITLE else None


def common_prefix(names: list[str]) -> str:
    # Character by character on purpose: these are titles, not paths.
    return os.path.commonprefix(names)  # noqa: RUF071
