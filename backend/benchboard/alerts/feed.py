"""A suite's alert groups as an Atom feed (feedgen writes the XML): an entry per group,
newest first, saying what its notification says."""

import re

from feedgen.feed import FeedGenerator
from sqlalchemy.orm import Session

from benchboard.alerts.messages import group_link, group_message
from benchboard.alerts.service import GroupFilter, get_group, list_groups
from benchboard.tokens.visibility import SERVICE
from benchboard.vocabulary import CHANGE_DIRECTIONS

ENTRIES = 50
# Characters XML 1.0 cannot hold (benchmark names and commits may carry them): dropped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def suite_feed(session: Session, suite: str, *, public_url: str, self_url: str) -> bytes:
    page = list_groups(session, GroupFilter(suite=suite), limit=ENTRIES, cursor=None)
    feed = FeedGenerator()
    feed.id(f"urn:benchboard:alerts:{suite}")
    feed.title(f"Benchboard alerts: {suite}")
    feed.link(href=self_url, rel="self")
    feed.link(href=f"{public_url.rstrip('/')}/regressions?suite={suite}", rel="alternate")
    feed.updated(max((g.created_at for g in page.items), default=None) or _epoch())
    for summary in reversed(page.items):  # feedgen puts the last added first
        group = get_group(session, SERVICE, summary.id)  # the route checked the suite
        link = group_link(public_url, group.id)
        message = group_message(group, events=list(CHANGE_DIRECTIONS), min_change=0.0, link=link)
        if message is None:  # every change moved to another group
            continue
        entry = feed.add_entry()
        entry.id(f"urn:benchboard:alert-group:{group.id}")
        entry.title(_NOT_XML.sub("", message.title))
        entry.link(href=link)
        entry.published(group.created_at)
        entry.updated(group.created_at)
        entry.content(_NOT_XML.sub("", message.body), type="text")
    xml: bytes = feed.atom_str(pretty=True)
    return xml


def _epoch() -> str:
    return "1970-01-01T00:00:00Z"
