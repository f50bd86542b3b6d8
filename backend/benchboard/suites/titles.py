"""A suite's title from its runs' names."""

import os

MIN_TITLE = 12


def suite_title(names: list[str | None], *, newest: str | None) -> str | None:
    """What the suite's runs are called in common ("Study X (8 cores)", "Study X (40 cores)"
    → "Study X"), else the newest run's name."""
    named = [name for name in names if name]
    # Character by character on purpose: these are titles, not paths.
    common = os.path.commonprefix(named).rstrip(" ([-–—:,") if len(named) > 1 else ""  # noqa: RUF071
    return common if len(common) >= MIN_TITLE else newest
