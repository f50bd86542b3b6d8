"""Tokens: random, stored hashed, revocable, shown once by the CLI."""

import subprocess
import sys

from sqlalchemy import Connection, event, literal_column, select, update
from sqlalchemy.orm import Session

from benchboard.config import Settings
from benchboard.models import ApiToken
from benchboard.tokens.service import authenticate, create_token, hash_token, revoke_token


def test_only_the_hash_is_stored(session: Session) -> None:
    secret = create_token(session, name="ci", scope="upload")
    stored = session.scalar(select(ApiToken).where(ApiToken.name == "ci"))
    assert stored is not None
    assert stored.token_hash == hash_token(secret)
    assert secret.encode() not in stored.token_hash


def test_tokens_are_random(session: Session) -> None:
    first = create_token(session, name="a", scope="upload")
    second = create_token(session, name="b", scope="upload")
    assert first != second
    assert len(first) > 40


def test_revoked_token_no_longer_authenticates(session: Session) -> None:
    secret = create_token(session, name="ci", scope="maintain")
    principal = authenticate(session, secret)
    assert principal is not None
    assert principal.may("maintain")
    assert not principal.may("upload")
    revoke_token(session, name="ci")
    assert authenticate(session, secret) is None


def test_a_use_is_recorded_once_a_minute_without_a_write_in_between(
    session: Session, connection: Connection
) -> None:
    secret = create_token(session, name="ci", scope="upload")
    statements: list[str] = []
    listen = lambda *args: statements.append(str(args[2]))  # noqa: E731  (before_cursor_execute)
    event.listen(connection, "before_cursor_execute", listen)
    try:
        assert authenticate(session, secret) is not None  # first use: recorded
        recorded = session.scalar(select(ApiToken.last_used_at).where(ApiToken.name == "ci"))
        writes_after_first = sum(s.startswith("UPDATE") for s in statements)
        assert authenticate(session, secret) is not None  # within the minute: no statement
        writes_after_second = sum(s.startswith("UPDATE") for s in statements)
        an_hour_ago = literal_column("now() - interval '1 hour'")
        session.execute(
            update(ApiToken).where(ApiToken.name == "ci").values(last_used_at=an_hour_ago)
        )
        assert authenticate(session, secret) is not None  # a stale use: recorded again
    finally:
        event.remove(connection, "before_cursor_execute", listen)
    assert recorded is not None
    assert (writes_after_first, writes_after_second) == (1, 1)
    assert sum(s.startswith("UPDATE") for s in statements) == 3  # the test's own UPDATE too


def test_cli_prints_only_the_token(settings: Settings) -> None:
    env = {
        "DATABASE_URL": "",
        "BENCHBOARD_DATA_DIR": str(settings.data_dir),
        "BENCHBOARD_DATABASE_NAME": "benchboard_cli_test",
        "PATH": "/usr/bin:/bin",
    }

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "benchboard.cli", *args],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )

    cli("db", "reset", "--yes")
    created = cli("token", "create", "--name", "runner", "--scope", "upload", "--suite", "team-*")
    assert created.stdout.strip().startswith("bb_")
    assert len(created.stdout.strip().splitlines()) == 1
    listed = cli("token", "list").stdout
    assert "runner\tupload\tteam-*" in listed
    assert created.stdout.strip() not in listed
    cli("token", "revoke", "runner")
    assert "revoked" in cli("token", "list").stdout
