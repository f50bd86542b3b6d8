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
                url=masked(target.url), events=target.events, min_change=target.min_change
            )
            for target in targets
        ]
    )


def set_notifications(
    session: Session, suite: str, settings: NotificationSettings, *, actor: Principal
) -> NotificationSettingsOut:
    """Replace the suite's targets. A target kept with the same URL keeps its outbox (its
    messages pending and sent); one left out is dropped with its pending messages."""
    require_suite(session, suite)
    bad = [
        FieldError(path=f"targets[{n}].url", message="not a URL Apprise can send to")
        for n, target in enumerate(settings.targets)
        if apprise.Apprise.instantiate(target.url) is None
    ]
    if bad:
        raise ValidationFailed("unknown notification URLs", bad)
    existing = {
        target.url: target
        for target in session.scalars(
            select(NotificationTarget).where(NotificationTarget.suite == suite).with_for_update()
        )
    }
    wanted = {target.url: target for target in settings.targets}
    session.execute(
        delete(NotificationTarget).where(
            NotificationTarget.id.in_(
                [target.id for url, target in existing.items() if url not in wanted]
            )
        )
    )
    for url, target in wanted.items():
        row = existing.get(url) or NotificationTarget(suite=suite, url=url)
        row.events = sorted(set(target.events))
        row.min_change = target.min_change
        row.token_id = actor.token_id
        session.add(row)
    session.flush()
    return get_notifications(session, suite)


def masked(url: str) -> str:
    """The URL as Apprise shows it with privacy: passwords and tokens hidden."""
    plugin = apprise.Apprise.instantiate(url)
    if plugin is None:
        return "(not a valid URL)"
    return str(plugin.url(privacy=True))  # type: ignore[no-untyped-call]


def require_suite(session: Session, suite: str) -> None:
    if session.get(Suite, suite) is None:
        raise NotFound(f"no suite {suite}")
