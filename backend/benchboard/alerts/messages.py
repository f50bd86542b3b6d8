"""What a notification says about an alert group: one message per group and target,
naming the suite, the commit, the counts and the worst changes, with a link to the group.
"""

from dataclasses import dataclass

from benchboard.alerts.schemas import AlertGroupDetail
from benchboard.regressions.schemas import RegressionOut

WORST_SHOWN = 5


@dataclass(frozen=True)
class Message:
    title: str
    body: str  # Markdown: Apprise converts it for each service


def group_link(public_url: str, group_id: int) -> str:
    return f"{public_url.rstrip('/')}/regressions/groups/{group_id}"


def changes_for(
    group: AlertGroupDetail, *, events: list[str], min_change: float
) -> list[RegressionOut]:
    """The group's changes a target asked for: of its directions, at least min_change."""
    return [
        m for m in group.members if m.direction in events and abs(m.relative_change) >= min_change
    ]


def group_message(
    group: AlertGroupDetail, *, events: list[str], min_change: float, link: str
) -> Message:
    shown = changes_for(group, events=events, min_change=min_change)
    regressions = sum(1 for m in shown if m.direction == "regression")
    improvements = len(shown) - regressions
    counts = ", ".join(
        f"{count} {word}{'' if count == 1 else 's'}"
        for count, word in ((regressions, "regression"), (improvements, "improvement"))
        if count
    )
    cause = f"commit {group.commit[:12]}" if group.commit else "one run"
    lines = [
        f"**{group.suite}**, {cause}: {counts} on {', '.join(group.machines)}.",
        "",
        "Largest:",
        *(
            f"- {m.series.benchmark} ({m.series.hardware}): {m.relative_change:+.1%} {m.direction}"
            for m in shown[:WORST_SHOWN]
        ),
        "",
        f"Triage: {link}",
    ]
    return Message(title=f"{group.suite}: {counts} at {cause}", body="\n".join(lines))
