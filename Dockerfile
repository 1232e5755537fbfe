# The gammon web site: `docker build -t gammon .`, then `docker compose up -d` runs it
# with PostgreSQL, Redis and nginx (compose.yaml; docs/deploy.md).
# The extras installed (pyproject.toml): `--build-arg EXTRAS=server,postgres,bot` adds the
# bot's engine (bgsage) for stronger bots, hints and analyses.
FROM python:3.11-slim AS build
ARG EXTRAS=server,postgres
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
RUN pip install --no-cache-dir --root-user-action=ignore --prefix=/install ".[${EXTRAS}]"

FROM python:3.11-slim
# a user of its own: the site never runs as root
RUN useradd --system --uid 10001 --user-group --create-home --home-dir /home/gammon gammon \
    && mkdir /data && chown gammon:gammon /data
COPY --from=build /install /usr/local
# every setting of `gammon serve --help` can be given as GAMMON_<NAME>; the compose file
# sets GAMMON_DATABASE_URL (PostgreSQL), GAMMON_REDIS_URL and GAMMON_TRUST_PROXY
ENV PYTHONUNBUFFERED=1 \
    GAMMON_HOST=0.0.0.0 \
    GAMMON_PORT=8000 \
    GAMMON_DATABASE_URL=sqlite:////data/gammon.db
VOLUME /data
USER gammon
WORKDIR /home/gammon
EXPOSE 8000
# liveness: the process answers (no database query); /readyz says whether it can serve
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('GAMMON_PORT', '8000') + '/healthz', timeout=2)"]
ENTRYPOINT ["gammon"]
CMD ["serve"]
