"""A suite's title from its runs' names."""

import os

MIN_TITLE = 12


def suite_title(names: list[str | None]) -> str | None:
    """What the suite's runs are called in common ("Study X (8 cores)", "Study X (40 cores)"
    → "Study X"), the name of its only named run, else None: a suite is never titled by
    one of many runs ("nightly #6")."""
    named = sorted({name for name in names if name})
    if len(named) == 1:
        return named[0]
    # Character by character on purpose: these are titles, not paths.
    common = os.path.commonprefix(named).rstrip(" ([-–—:,")  # noqa: RUF071
    return common if len(common) >= MIN_TITLE else None
