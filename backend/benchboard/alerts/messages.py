"""What a notification says about an alert group: one message per group and target,
naming the suite, the commit, the counts and the worst changes, with a link to the group.
"""

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from benchboard.alerts.schemas import AlertGroupDetail
from benchboard.regressions.schemas import RegressionOut

WORST_SHOWN = 5


@dataclass(frozen=True)
class Message:
    title: str
    body: str  # Markdown: Apprise converts it for each service
    announced: list[int]  # the changes (regression ids) it names


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
    group: AlertGroupDetail,
    *,
    events: list[str],
    min_change: float,
    link: str,
    told: AbstractSet[int] = frozenset(),
) -> Message | None:
    """The message of the group's changes the target asked for and was not `told` of
    (None: no such change); after a first message, it says they are more of the group."""
    shown = [
        m for m in changes_for(group, events=events, min_change=min_change) if m.id not in told
    ]
    if not shown:
        return None
    regressions = sum(1 for m in shown if m.direction == "regression")
    improvements = len(shown) - regressions
    more = "more " if told else ""
    counts = ", ".join(
        f"{count} {more}{word}{'' if count == 1 else 's'}"
        for count, word in ((regressions, "regression"), (improvements, "improvement"))
        if count
    )
    machines = sorted({m.series.hardware for m in shown})
    cause = f"commit {group.commit[:12]}" if group.commit else "one run"
    lines = [
        f"**{group.suite}**, {cause}: {counts} on {', '.join(machines)}.",
        *([f"They joined the group after its first message ({len(told)} told)."] if told else []),
        "",
        "Largest:",
        *(
            f"- {m.series.benchmark} ({m.series.hardware}): {m.relative_change:+.1%} {m.direction}"
            for m in shown[:WORST_SHOWN]
        ),
        "",
        f"Triage: {link}",
    ]
    return Message(
        title=f"{group.suite}: {counts} at {cause}",
        body="\n".join(lines),
        announced=[m.id for m in shown],
    )
