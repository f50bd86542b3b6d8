"""Every setting of the service, read once from the environment (see .env.example)."""

from functools import lru_cache
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]
# prometheus_client's multiprocess directory, read when it is first imported.
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


class Settings(BaseSettings):
    """`BENCHBOARD_*` variables, plus the conventional `DATABASE_URL`."""

    model_config = SettingsConfigDict(env_prefix="BENCHBOARD_", env_file=".env", extra="ignore")

    database_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("DATABASE_URL", "BENCHBOARD_DATABASE_URL"),
    )
    # A streaming replica for public reads (replica.py); unset: everything on the primary.
    database_read_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("DATABASE_READ_URL", "BENCHBOARD_DATABASE_READ_URL"),
    )
    data_dir: Path = REPO_ROOT / ".data"
    database_name: str = "benchboard"
    # The memory the embedded PostgreSQL sizes its settings for (database_server.py);
    # unset: all of the machine's.
    embedded_database_memory_mb: int | None = Field(default=None, ge=256)
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 2
    # Admission control (admission.py): API requests one uvicorn worker runs against the
    # database at once, and how long another waits for its turn before a 503. Below the
    # pool's 10 connections: health and /metrics keep a connection during a crowd. Four
    # per worker kept 2 cores busy with a shorter tail than eight (README "Crowds").
    request_concurrency: int = Field(default=4, ge=1, le=9)
    request_wait_s: float = Field(default=1.0, gt=0)
    # Public reads' answers kept per worker process, by data version and URL (caching.py).
    read_cache_mb: int = Field(default=32, ge=0)
    public_read: bool = True
    demo: bool = True
    max_body_bytes: int = 32 * 1024 * 1024
    static_dir: Path = REPO_ROOT / "frontend" / "dist"
    migrations_dir: Path = REPO_ROOT / "migrations"
    webhook_url: str | None = None
    # Where readers reach the dashboard: notifications link to alert groups under it.
    public_url: str = "http://localhost:8000"
    # First retry of a failed webhook delivery, doubling each time (at most an hour).
    webhook_retry_s: float = 10.0
    # An alert group's message waits this long after its first change, so the commit's
    # runs on other machines join it; a later one gets a follow-up (pipeline/notifications).
    notification_settle_s: float = Field(default=600.0, ge=0)
    # Change detection: worker processes `serve` starts beside the API (0: none, run
    # `benchboard worker` elsewhere), series per claimed batch, and how long a claim of
    # a worker that is still connected but stuck is honoured.
    detect_workers: int = 1
    detect_batch_size: int = 1000
    detect_claim_timeout_s: float = 600.0
    # Idle workers wake on NOTIFY; this is the longest they sleep without one.
    detect_poll_s: float = 5.0
    # After a batch smaller than detect_batch_size, a worker claims again only this much
    # later: a stream of small uploads is checked once per pause, not once per upload.
    detect_settle_s: float = Field(default=0.25, ge=0)
    # Workers run at this much lower CPU priority (os.nice): on a shared machine an upload
    # or a read is served first, and a check takes the cores they leave.
    detect_nice: int = Field(default=10, ge=0, le=19)
    # A claim is a lease: a batch whose worker died is claimable again after this,
    # doubling with each attempt (at most 2**9 times); a failed check backs off alike.
    detect_retry_s: float = 5.0
    # A series whose check failed this many times is marked failing and skipped until new
    # data or a maintainer's retry (POST /api/v1/series/{id}/detection/retry).
    detect_max_attempts: int = 5
    # Series of this many results or more get history snapshots (series/snapshots.py),
    # built by idle workers; below it, writing the points per read is about as fast.
    snapshot_min_points: int = 1000
    # `benchboard worker` alone (not under `serve`) serves its /metrics on this port.
    worker_metrics_port: int | None = None


@lru_cache
def get_settings() -> Settings:
    return Settings()
