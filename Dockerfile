# spades-bot: a slim image running the `spades-bot` command as an unprivileged user.
# Build:  docker build -t spades-bot .
# Run:    docker run -d --env-file .env -v spades-data:/data --restart unless-stopped spades-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/spades.db \
    HEALTH_FILE=/tmp/spades-bot.alive \
    HOME=/home/spades \
    XDG_CACHE_HOME=/home/spades/.cache \
    MPLCONFIGDIR=/home/spades/.cache/matplotlib

WORKDIR /app

# The dependencies alone first: this layer is rebuilt only when pyproject.toml changes, not
# on every code change.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install --no-compile -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The user, and every folder it writes: the database volume and its caches (matplotlib's
# font cache among them).
RUN useradd --system --uid 10001 --create-home --home-dir /home/spades \
        --shell /usr/sbin/nologin spades \
    && mkdir -p /data "$MPLCONFIGDIR" \
    && chown -R spades /data /home/spades

# Then the code (no dependency is resolved again).  The image has no C compiler, so setup.py
# builds the engine as pure Python (docs/operations.md, "The compiled engine").
COPY README.md LICENSE setup.py ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-compile --no-deps .

USER spades
VOLUME ["/data"]
# The bot rewrites HEALTH_FILE every 20 s while it is connected to Discord; the check fails
# when that stopped for 90 s (stuck, or Discord unreachable).
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]
CMD ["spades-bot"]
