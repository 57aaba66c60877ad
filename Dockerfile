# spades-bot: a slim image running `python -m bot` as an unprivileged user.
# Build:  docker build -t spades-bot .
# Run:    docker run -d --env-file .env -v spades-data:/data --restart unless-stopped spades-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/spades.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-compile . \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin spades \
    && mkdir -p /data && chown spades /data

USER spades
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
