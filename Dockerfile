# pinvoice serve in a container, for CI jobs that have no Node (docs/container.md). Containerfile is
# a link to this file (Docker's BuildKit does not follow a Dockerfile that is a link; podman does).
#
#   docker build -t pinvoice .            (or: podman build --format docker -t pinvoice .)
#   docker run --rm -p 4010:4010 -v pinvoice-data:/data pinvoice
#
# Two stages on Debian trixie, whose nodejs is 20.19: the build stage installs the lockfile's
# versions (npm ci), compiles better-sqlite3 against Debian's Node headers and the TypeScript, then
# drops the development packages; the runtime stage holds Debian's nodejs, the production packages
# and the built program, runs as an unprivileged user and keeps its database under the /data volume.
# Nothing is fetched at run time, and no token or secret is built in: the first start creates the
# sandbox company and prints its token once (also written by --write-env to a mounted path), or
# PINVOICE_SERVE_TOKEN fixes it.
#
# Base images are build arguments (--build-arg BASE_IMAGE=…); both default to Debian's official slim
# image. Behind a TLS-intercepting proxy, give npm its certificate authority as a build secret, used
# by the install step only and never stored in a layer:
#   podman build --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt …
ARG BASE_IMAGE=docker.io/library/debian:trixie-slim
ARG BUILD_IMAGE=${BASE_IMAGE}

FROM ${BUILD_IMAGE} AS build
ARG DEBIAN_FRONTEND=noninteractive
# libnode-dev: Node's headers, so node-gyp builds better-sqlite3 without downloading them
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs npm libnode-dev python3 make g++ ca-certificates \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin
WORKDIR /src
COPY package.json package-lock.json ./
# scripts are run after the sources are in (prepare builds them); better-sqlite3's own is run here
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi \
 && npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3 --nodedir=/usr
COPY tsconfig.json tsconfig.types.json ./
COPY src ./src
# then only what runs: the production packages, and of better-sqlite3 its compiled module (not the
# SQLite sources and object files it was built from)
RUN npm run build && npm prune --omit=dev --no-audit --no-fund \
 && cd node_modules/better-sqlite3 && mv build/Release/better_sqlite3.node . && rm -rf build deps src \
 && mkdir -p build/Release && mv better_sqlite3.node build/Release/

FROM ${BASE_IMAGE}
ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs ca-certificates \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && useradd --uid 10001 --user-group --no-create-home --home-dir /data --shell /usr/sbin/nologin pinvoice \
 && mkdir -p /data && chown pinvoice:pinvoice /data && chmod 700 /data
WORKDIR /opt/pinvoice
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY bin ./bin
COPY assets ./assets
COPY schemas ./schemas
COPY completions ./completions
RUN ln -s /opt/pinvoice/bin/pinvoice.js /usr/local/bin/pinvoice
# the data directory (servers' registry, keys of an in-memory database) and the database are the volume
ENV NODE_ENV=production PINVOICE_DATA_DIR=/data PINVOICE_DB=/data/pinvoice.db
USER pinvoice
VOLUME /data
EXPOSE 4010
# the default port over plain HTTP; a server started with another --port or --tls needs its own check
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "require('node:http').get('http://127.0.0.1:4010/health', (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1))"]
ENTRYPOINT ["pinvoice"]
CMD ["serve", "--host", "0.0.0.0", "--db", "/data/pinvoice.db"]
