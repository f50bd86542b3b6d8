"""The application: create_app(settings) wires routers, errors, the database and the dashboard."""

import gc
import json
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.openapi.utils import get_openapi
from starlette_compress import CompressMiddleware

from benchboard.access.router import router as tokens_router
from benchboard.admission import Admission
from benchboard.alerts.router import router as alerts_router
from benchboard.annotations.router import router as annotations_router
from benchboard.bounds import reject_unstorable_parameters
from benchboard.caching import ReadCache, install_caching, keep_reads, serve_kept
from benchboard.compare.router import router as compare_router
from benchboard.config import Settings, get_settings
from benchboard.curation.router import router as curation_router
from benchboard.database_server import read_database_url, resolve_database_url
from benchboard.db import make_engine, make_session_factory
from benchboard.delivery import SecurityHeaders, serve_dashboard
from benchboard.errors import document_error_envelope, install_error_handlers
from benchboard.findings.router import router as findings_router
from benchboard.hardware.router import router as hardware_router
from benchboard.health import router as health_router
from benchboard.metrics import RequestMetrics
from benchboard.publication.pages import pages_router
from benchboard.publication.router import router as publication_router
from benchboard.regressions.router import router as regressions_router
from benchboard.regressions.router import series_detection_router, webhooks_router
from benchboard.replica import ReplicaReads
from benchboard.runs.router import router as runs_router
from benchboard.runs.schemas import RunBatchUpload, RunUpload
from benchboard.series.router import router as series_router
from benchboard.studies.router import router as studies_router
from benchboard.suites.router import router as suites_router
from benchboard.tool_formats.router import router as tool_formats_router
from benchboard.warm_up import warm_up


def create_app(settings: Settings, *, database_url: str | None = None) -> FastAPI:
    app = FastAPI(
        title="Benchboard",
        version="1.0.0",
        summary="Benchmark results: upload contract v1, series, comparisons, regressions.",
        dependencies=[Depends(reject_unstorable_parameters)],
        # Served from bundled files by delivery.serve_dashboard: FastAPI's pages load a CDN.
        docs_url=None,
        redoc_url=None,
    )
    engine = make_engine(database_url or resolve_database_url(settings), serves_requests=True)
    app.state.settings = settings
    app.state.engine = engine
    app.state.session_factory = make_session_factory(engine)
    read_url = read_database_url(settings)
    app.state.read_session_factory = (
        make_session_factory(make_engine(read_url, serves_requests=True)) if read_url else None
    )
    install_error_handlers(app)
    if read_url:
        app.add_middleware(ReplicaReads)  # inside the metrics: a retry counts once
    # Outside the replica's retry (one turn per request), inside the metrics (503s count).
    app.add_middleware(
        Admission, limit=settings.request_concurrency, wait_s=settings.request_wait_s
    )
    read_cache = ReadCache(settings.read_cache_mb * 2**20) if settings.read_cache_mb else None
    app.state.read_cache = read_cache
    if read_cache:
        serve_kept(app, read_cache)  # outside admission: a kept answer needs no turn
    app.add_middleware(RequestMetrics)
    # Histories of thousands of points are JSON of hundreds of KB; built files come
    # precompressed (delivery.py) and pass through untouched. Each coding at its fastest
    # level that still shrinks a 2,000-point history (500 KB) 4-5x: zstd 1 in 0.6 ms to
    # 93 KB, Brotli 1 in 1.0 ms to 102 KB, gzip 1 in 2.6 ms to 120 KB, where gzip 5 took
    # 5.4 ms for 106 KB (bench/README.md). Zstandard first: Chrome, Edge and Firefox ask
    # for it, Safari for Brotli; gzip is left to scripts.
    if read_cache:
        keep_reads(app, read_cache)  # inside the compression
    app.add_middleware(
        CompressMiddleware, minimum_size=1024, zstd_level=1, brotli_quality=1, gzip_level=1
    )
    install_caching(app)
    app.add_middleware(SecurityHeaders)
    for router in (
        health_router,
        runs_router,
        suites_router,
        studies_router,
        findings_router,
        series_router,
        series_detection_router,
        curation_router,
        compare_router,
        regressions_router,
        alerts_router,
        webhooks_router,
        annotations_router,
        tool_formats_router,
        tokens_router,
        hardware_router,
        publication_router,
        pages_router,  # before the dashboard's catch-all: these pages carry sharing cards
    ):
        app.include_router(router)
    serve_dashboard(app, settings.static_dir)
    app.openapi = lambda: _openapi_with_upload_schema(app)  # type: ignore[method-assign]
    return app


def _openapi_with_upload_schema(app: FastAPI) -> dict[str, Any]:
    """The schema, with the upload contract's models among its components and the error
    envelope as every 422's body.

    POST /runs and /runs/batch read their bodies themselves (size limit, idempotency on
    the raw bytes), so FastAPI does not see RunUpload or RunBatchUpload; their models are
    added here for the generated client.
    """
    if app.openapi_schema is None:
        schema = get_openapi(
            title=app.title, version=app.version, summary=app.summary, routes=app.routes
        )
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for model in (RunUpload, RunBatchUpload):
            upload = model.model_json_schema(ref_template="#/components/schemas/{model}")
            components.update(upload.pop("$defs", {}))
            components[model.__name__] = upload
        document_error_envelope(schema)
        app.openapi_schema = schema
    return app.openapi_schema


def openapi_document(settings: Settings) -> str:
    """The OpenAPI schema as committed in frontend/openapi.json (no database needed)."""
    # The engine connects lazily, so this URL is never used.
    app = create_app(settings, database_url="postgresql+psycopg://schema-only/none")
    return json.dumps(app.openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def create_app_from_environment() -> FastAPI:
    """Factory for uvicorn workers: settings (and DATABASE_URL) come from the environment."""
    app = create_app(get_settings())
    warm_up(app)
    # The modules, the app and the warmed caches are here for good: keep them out of the
    # collector's full passes, which walked all of them and cost 60-90 ms of CPU on a
    # 300-pair compare/modes answer (its few thousand objects set off a full pass).
    gc.freeze()
    return app
