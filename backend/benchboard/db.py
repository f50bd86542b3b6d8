"""Engine and sessions. The request owns the transaction: commit on success, else roll back."""

from collections.abc import Iterator

import orjson
from fastapi import Request
from sqlalchemy import Engine, create_engine
from sqlalchemy.orm import Session, sessionmaker

from benchboard.replica import reads_replica


def make_engine(url: str) -> Engine:
    # jsonb columns parsed by orjson: the standard library's json.loads took a third of a
    # 300-pair compare/modes answer (uploads bound every number to what a double holds).
    return create_engine(
        url, pool_size=10, max_overflow=10, pool_pre_ping=True, json_deserializer=orjson.loads
    )


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def get_session(request: Request) -> Iterator[Session]:
    factory: sessionmaker[Session] = request.app.state.session_factory
    if reads_replica(request.scope) and request.app.state.read_session_factory is not None:
        factory = request.app.state.read_session_factory
    with factory() as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
