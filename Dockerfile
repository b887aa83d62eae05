# scorekeeper in a container: the app under gunicorn (2 processes, each an event loop for the
# phones' long polls and 4 threads for the pages), its database
# on a volume at /data.
#   docker build -t scorekeeper .
#   docker run -p 8000:8000 -v scorekeeper-data:/data scorekeeper
# Behind HTTPS, use deploy/compose.yaml (Caddy in front); docs/deploy.md says more.

# An exact Python release on an exact Debian: a rebuild gets the same system. Where that image
# cannot be pulled, any Debian bookworm with python3, pip and the packages below will do:
#   docker build --build-arg BASE=localhost/bookworm-python .   (tests/deploy/test_deploy_compose.py)
ARG BASE=python:3.11.14-slim-bookworm
FROM ${BASE} AS build
WORKDIR /src
COPY . .
# The wheel carries templates, static files and the compiled translations (setup.py).
RUN pip wheel --no-cache-dir --no-deps -w /wheels .

FROM ${BASE}
# Pango and HarfBuzz for WeasyPrint's PDF; DejaVu has Cyrillic and the card suits; tini is
# PID 1: it passes SIGTERM on to gunicorn and reaps what ends.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core tini \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /wheels /wheels
COPY constraints.txt /tmp/constraints.txt
RUN pip install --no-cache-dir -c /tmp/constraints.txt /wheels/*.whl \
    && rm -rf /wheels /tmp/constraints.txt
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin scorekeeper \
    && mkdir -p /data && chown scorekeeper:scorekeeper /data
USER scorekeeper
# The instance folder holds the database, the secret key and the shared limits.
ENV SCOREKEEPER_INSTANCE=/data \
    SCOREKEEPER_DB=/data/scorekeeper.sqlite \
    SCOREKEEPER_BIND=0.0.0.0:8000 \
    SCOREKEEPER_WORKERS=2 \
    SCOREKEEPER_THREADS=4 \
    PYTHONUNBUFFERED=1
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s \
    CMD python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"
# `docker stop` sends SIGTERM: gunicorn answers the requests in flight (30 s at most), then
# exits 0. Give it that long: docker stop --time 40 (compose.yaml says stop_grace_period).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["gunicorn", "--config", "python:scorekeeper.gunicorn_config"]
