# syntax=docker/dockerfile:1
# spades-bot: a slim image running the `spades-bot` command as an unprivileged user, with the
# rules engine compiled by mypyc (docs/operations.md, "Docker" and "The compiled engine").
# Build:  docker build -t spades-bot .
# Run:    docker run -d --env-file .env -v spades-data:/data --restart unless-stopped spades-bot
#
# Two builder stages on the full python:3.11 image (it has gcc) make wheels; the final stage,
# python:3.11-slim (no compiler), installs them from read-only mounts of those stages, so no
# wheel, source tree or build tool ends up in a layer of the image.  Both images come from the
# same Debian release, so the compiled modules link against the C library they run with.
ARG DEBIAN=trixie

# The dependencies' wheels: rebuilt only when pyproject.toml changes, not on a code change.
FROM python:3.11-${DEBIAN} AS dependencies
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip wheel --wheel-dir /wheels -r /tmp/requirements.txt \
    && mv /tmp/requirements.txt /wheels/

# The project's wheel, its engine compiled: pip builds it with pyproject's build requirements
# (setuptools, and mypy, which brings mypyc) and setup.py compiles with this image's gcc.
FROM python:3.11-${DEBIAN} AS engine
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md LICENSE setup.py ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim-${DEBIAN}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/spades.db \
    HEALTH_FILE=/tmp/spades-bot.alive \
    HOME=/home/spades \
    XDG_CACHE_HOME=/home/spades/.cache \
    MPLCONFIGDIR=/home/spades/.cache/matplotlib

# The dependencies alone first, from their wheels (nothing is built or downloaded here): this
# layer is rebuilt only when pyproject.toml changes.
RUN --mount=type=bind,from=dependencies,source=/wheels,target=/wheels \
    pip install --no-compile --no-index --find-links /wheels -r /wheels/requirements.txt

# The user, and every folder it writes: the database volume and its caches (matplotlib's
# font cache among them).
RUN useradd --system --uid 10001 --create-home --home-dir /home/spades \
        --shell /usr/sbin/nologin spades \
    && mkdir -p /data "$MPLCONFIGDIR" \
    && chown -R spades /data /home/spades

# Then the code: the project's wheel (no dependency is resolved again), and a check that fails
# the build unless the engine it installed is the compiled one.
RUN --mount=type=bind,from=engine,source=/wheels,target=/wheels \
    pip install --no-compile --no-index --no-deps /wheels/spades_bot-*.whl \
    && python -c "import bot.engine.game as g, bot.engine.build as b; n = b.build_name(g); print('engine:', n); assert n == 'compiled (mypyc)', n"

USER spades
VOLUME ["/data"]
# The bot rewrites HEALTH_FILE every 20 s while it is connected to Discord; the check fails
# when that stopped for 90 s (stuck, or Discord unreachable).
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]
CMD ["spades-bot"]
