"""The seed studies, loaded through the same code path as any upload (idempotent by id)."""

import logging
from importlib import resources

from sqlalchemy.orm import Session

from benchboard.runs.body import parse_upload
from benchboard.runs.service import StoredRun, store_run

logger = logging.getLogger(__name__)


def demo_files() -> list[tuple[str, bytes]]:
    folder = resources.files("benchboard") / "demo"
    return sorted(
        (item.name, item.read_bytes()) for item in folder.iterdir() if item.name.endswith(".json")
    )


def load_demo(session: Session) -> list[StoredRun]:
    """Store every seed study that is not stored yet; the caller commits."""
    stored = []
    for name, body in demo_files():
        run = store_run(session, parse_upload(body), raw_body=body, uploader=None)
        logger.info("demo %s: %s", name, "loaded" if run.created else "already there")
        stored.append(run)
    return stored
