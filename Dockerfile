# moji in a container: one process, `python -m bot`, serving Discord and/or Slack.
#   docker build -t moji .
#   docker run -d --env-file .env -v moji-data:/data -p 127.0.0.1:3000:3000 moji
# SQLite on the /data volume by default; PostgreSQL with DATABASE_URL (see compose.yaml).
# docs/DEPLOY.md explains each choice and what is tested without a container runtime.
ARG PYTHON_VERSION=3.11

# --- build: moji's own wheel (pure Python; the build tools stay in this stage) -------------
FROM python:${PYTHON_VERSION}-slim-bookworm AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_ROOT_USER_ACTION=ignore
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY adapters ./adapters
COPY games ./games
COPY storage ./storage
RUN pip wheel --no-deps --wheel-dir /wheels .

# --- the image ----------------------------------------------------------------------------
FROM python:${PYTHON_VERSION}-slim-bookworm
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_ROOT_USER_ACTION=ignore

# The exact runtime dependencies, hash-checked, from the lock file (`make lock`); this layer
# changes only when the lock does. Then moji itself with --no-deps: nothing unlocked sneaks in,
# and `pip check` fails the build if the lock lacks something pyproject.toml asks for.
COPY requirements.lock /tmp/requirements.lock
RUN pip install --require-hashes --no-deps -r /tmp/requirements.lock && rm /tmp/requirements.lock
COPY --from=build /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl && rm -rf /tmp/wheels && pip check
# The card font ships inside the package (adapters/pictures/fonts/DejaVuSans-Bold.ttf), and
# Pillow's wheel brings its own FreeType: no system fonts or libraries to install.

# An unprivileged user owning only the data volume.
RUN groupadd --system --gid 10001 moji \
 && useradd --system --uid 10001 --gid moji --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin moji \
 && mkdir -p /data && chown moji:moji /data

ENV DATABASE_URL=sqlite:////data/moji.db \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json
WORKDIR /data
VOLUME ["/data"]
# /healthz, /readyz, /metrics in every mode; Slack HTTP mode's /slack/events too.
EXPOSE 3000
USER 10001:10001

# Ready = the database answers and every configured platform is connected (503 otherwise).
# slim has no curl: Python's urllib, which fails on any status but 2xx.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/readyz' % os.environ.get('PORT', '3000'), timeout=4)"]

# Exec form: python is PID 1 and gets SIGTERM itself; moji stops gracefully on it (answers
# in a settle window judged, races told, queued messages sent; within about 10 s).
# `docker run moji migrate`, `docker run moji --version` pass a mode instead of `run`.
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
