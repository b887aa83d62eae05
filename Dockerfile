# scorekeeper in a container: the app under waitress, its database on a volume at /data.
#   docker build -t scorekeeper .
#   docker run -p 8000:8000 -v scorekeeper-data:/data scorekeeper
# Behind HTTPS, use deploy/compose.yaml (Caddy in front); docs/deploy.md says more.

FROM python:3.11-slim AS build
WORKDIR /src
COPY . .
# The wheel carries templates, static files and the compiled translations (setup.py).
RUN pip wheel --no-cache-dir --no-deps -w /wheels .

FROM python:3.11-slim
# Pango and HarfBuzz for WeasyPrint's PDF; DejaVu has Cyrillic and the card suits.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /wheels /wheels
COPY constraints.txt /tmp/constraints.txt
RUN pip install --no-cache-dir -c /tmp/constraints.txt /wheels/*.whl \
    && rm -rf /wheels /tmp/constraints.txt
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin scorekeeper \
    && mkdir -p /data && chown scorekeeper:scorekeeper /data
USER scorekeeper
# The instance folder holds the database, the secret key and any TLS certificate.
ENV SCOREKEEPER_INSTANCE=/data \
    SCOREKEEPER_DB=/data/scorekeeper.sqlite \
    PYTHONUNBUFFERED=1
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s \
    CMD python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"
CMD ["scorekeeper", "serve", "--host", "0.0.0.0", "--port", "8000"]
