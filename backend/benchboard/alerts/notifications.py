"""A suite's notification targets: set whole, read back with their secrets masked.

The URLs are Apprise's (https://github.com/caronc/apprise/wiki); Apprise checks them
when they are set (a URL it cannot send to is a 422 naming it) and masks their secrets
when they are read. The worker sends the messages (pipeline/notifications.py).
"""

import apprise
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from benchboard.alerts.schemas import (
    NotificationSettings,
    NotificationSettingsOut,
    NotificationTargetIn,
    NotificationTargetOut,
)
from benchboard.errors import FieldError, NotFound, ValidationFailed
from benchboard.models import NotificationTarget, Suite
from benchboard.tokens.service import Principal


def get_notifications(session: Session, suite: str) -> NotificationSettingsOut:
    require_suite(session, suite)
    targets = session.scalars(
        select(NotificationTarget)
        .where(NotificationTarget.suite == suite)
        .order_by(NotificationTarget.id)
    )
    return NotificationSettingsOut(
        targets=[
            NotificationTargetOut(
                id=target.id,
                url=masked(target.url),
                events=target.events,
                min_change=target.min_change,
            )
            for target in targets
        ]
    )


def set_notifications(
    session: Session, suite: str, settings: NotificationSettings, *, actor: Principal
) -> NotificationSettingsOut:
    """Replace the suite's targets. A target kept (by its id, or with the same URL) keeps
    its outbox (its messages pending and sent); one left out is dropped with its pending
    messages."""
    require_suite(session, suite)
    existing = {
        target.id: target
        for target in session.scalars(
            select(NotificationTarget).where(NotificationTarget.suite == suite).with_for_update()
        )
    }
    bad = []
    kept: list[tuple[NotificationTarget, NotificationTargetIn]] = []
    for n, target in enumerate(settings.targets):
        row = _row(suite, existing, target, path=f"targets[{n}]")
        if isinstance(row, FieldError):
            bad.append(row)
        else:
            kept.append((row, target))
    if bad:
        raise ValidationFailed("unknown notification targets", bad)
    kept_ids = {row.id for row, _ in kept}
    session.execute(
        delete(NotificationTarget).where(
            NotificationTarget.id.in_([key for key in existing if key not in kept_ids])
        )
    )
    for row, target in kept:
        row.events = sorted(set(target.events))
        row.min_change = target.min_change
        row.token_id = actor.token_id
        session.add(row)
    session.flush()
    return get_notifications(session, suite)


def _row(
    suite: str,
    existing: dict[int, NotificationTarget],
    target: NotificationTargetIn,
    *,
    path: str,
) -> NotificationTarget | FieldError:
    """The suite's row a target names (by id, or by the same URL), else a new row."""
    if target.url is None:
        found = existing.get(target.id or 0)
        return found or FieldError(path=f"{path}.id", message="not a target of the suite")
    if apprise.Apprise.instantiate(target.url) is None:
        return FieldError(path=f"{path}.url", message="not a URL Apprise can send to")
    same = next((row for row in existing.values() if row.url == target.url), None)
    return same or NotificationTarget(suite=suite, url=target.url)


def masked(url: str) -> str:
    """The URL as Apprise shows it with privacy: passwords and tokens hidden."""
    plugin = apprise.Apprise.instantiate(url)
    if plugin is None:
        return "(not a valid URL)"
    return str(plugin.url(privacy=True))  # type: ignore[no-untyped-call]


def require_suite(session: Session, suite: str) -> None:
    if session.get(Suite, suite) is None:
        raise NotFound(f"no suite {suite}")
