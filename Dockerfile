# The service image: API + built dashboard. PostgreSQL runs as its own service
# (docker-compose.yml), so the embedded one is never started here.
FROM node:20-bookworm-slim AS frontend
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
WORKDIR /app
COPY ingest/ ingest/
COPY backend/ backend/
COPY migrations/ migrations/
RUN pip install --no-cache-dir ./ingest ./backend
COPY --from=frontend /src/frontend/dist frontend/dist
ENV BENCHBOARD_HOST=0.0.0.0 \
    BENCHBOARD_STATIC_DIR=/app/frontend/dist \
    BENCHBOARD_MIGRATIONS_DIR=/app/migrations
EXPOSE 8000
USER nobody
CMD ["benchboard", "serve"]
