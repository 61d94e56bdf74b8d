# Every deployable's image, built from the repository root (the npm workspace it belongs to), e.g.
#   docker build --build-arg CONTROLLER=workload -t ghcr.io/zk-oam/workload:0.1.0 .
# CONTROLLER is one of workload, scale, rolling, appconfig, or console (the console is no controller, but it ships the
# same way); deploy/<name>/deployment.yaml runs the result. The image holds what `npm run build` ships, the package's
# dist/ (controllers/<name>/dist/, console/dist/ with its web/ files), and runs its main.mjs: the bed's node agent runs
# the same file for the same image name (test/src/bed/controller-images.ts).
ARG CONTROLLER

# Build stage: the full Debian Node image carries python3, make and g++, which the zookeeper npm package (a native
# addon over the ZooKeeper C client, built on install) needs.
FROM node:22-bookworm AS build
ARG CONTROLLER
RUN test -n "$CONTROLLER" || { echo "--build-arg CONTROLLER=<workload|scale|rolling|appconfig|console> is required" >&2; exit 1; }
WORKDIR /src
COPY package.json package-lock.json tsconfig.base.json turbo.json ./
COPY scripts/bundle.mjs scripts/
COPY apis/ apis/
COPY controllers/ controllers/
COPY console/ console/
# npm ci wants every workspace of the lockfile present; the test workspace's manifest is enough.
COPY test/package.json test/
# Install scripts are skipped (the `node` devDependency would fetch a second Node); only the native addon is built.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild zookeeper
# npm links each workspace package at node_modules/@zk-oam/<name>, wherever it lives: one path for every deployable.
RUN npx turbo run build --filter=@zk-oam/${CONTROLLER} && cp -r node_modules/@zk-oam/${CONTROLLER}/dist /dist

# Run stage: the same Debian release (the addon links against its glibc), no compilers, no npm cache, not root.
FROM node:22-bookworm-slim
ARG CONTROLLER
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=0:0 /dist/ /app/
# Numeric, so that runAsNonRoot can verify it.
USER 65532:65532
EXPOSE 8080
# main.mjs.map is beside it: NODE_OPTIONS=--enable-source-maps gives stack traces in the TypeScript sources.
ENTRYPOINT ["node", "/app/main.mjs"]
