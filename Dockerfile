# Every deployable's image, built from the repository root (the npm workspace it belongs to), e.g.
#   docker build --build-arg CONTROLLER=workload -t ghcr.io/zk-oam/workload:0.1.0 .
# or all eight at once: `npm run images` (docs/getting-started.md). CONTROLLER is one of workload, scale, rolling,
# appconfig, znode, backup, manager (any set of the controllers in one process, CONTROLLERS=...), or console (the console is no
# controller, but it ships the same way); deploy/<name>/deployment.yaml runs the result. The image holds what `npm run
# build` ships, the package's dist/ (controllers/<name>/dist/, console/dist/
# with its web/ files), and runs its main.mjs: the bed's node agent runs the same file for the same image name
# (test/src/bed/controller-images.ts).
#
# BUILD_BASE and RUN_BASE name the base images: the public Node images by default. Another base must keep their
# layout (node in /usr/local/bin, its headers in /usr/local/include/node, npm in the build base).
ARG BUILD_BASE=node:22-bookworm
ARG RUN_BASE=node:22-bookworm-slim

# Build stage: the full Debian Node image carries python3, make and g++, which the zookeeper npm package (a native
# addon over the ZooKeeper C client, built on install) needs.
FROM ${BUILD_BASE} AS build
WORKDIR /src
# The install comes first and depends on nothing but the manifests, so the eight images share its layer.
COPY package.json package-lock.json ./
COPY apis/package.json apis/
COPY controllers/runtime/package.json controllers/runtime/
COPY controllers/zookeeper/package.json controllers/zookeeper/
COPY controllers/workload/package.json controllers/workload/
COPY controllers/scale/package.json controllers/scale/
COPY controllers/rolling/package.json controllers/rolling/
COPY controllers/appconfig/package.json controllers/appconfig/
COPY controllers/znode/package.json controllers/znode/
COPY controllers/backup/package.json controllers/backup/
COPY controllers/manager/package.json controllers/manager/
COPY console/package.json console/
# npm ci wants every workspace of the lockfile present; the test workspace's manifest is enough.
COPY test/package.json test/
# Install scripts are skipped (the `node` devDependency would fetch a second Node); only the native addon is built,
# against the base's own Node headers, so node-gyp downloads nothing.
ENV npm_config_nodedir=/usr/local
# Unset for users. A machine that reaches the npm registry through a proxy with its own CA passes that CA (npm run images
# does so when NODE_EXTRA_CA_CERTS is set, with the file mounted at the same path).
ARG NODE_EXTRA_CA_CERTS
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild zookeeper
COPY tsconfig.base.json ./
COPY scripts/bundle.mjs scripts/
COPY apis/ apis/
COPY controllers/ controllers/
COPY console/ console/
# Without --build-arg CONTROLLER=<workload|scale|rolling|appconfig|znode|backup|manager|console>, this step fails on the
# missing directory node_modules/@zk-oam/pass---build-arg-CONTROLLER.
ARG CONTROLLER=pass---build-arg-CONTROLLER
# Only the deployable this image runs is bundled (its package's build script), into /dist: an image costs its own bundle,
# and the layers above are still shared. All eight bundled in one shared step took 50 s of the manager image's 86 s
# (2026-11-29, 2 cores, beside other work), the manager's own bundle 6 s of them: `npm start` needs two images (the
# manager's and the console's) before it shows the ensemble, and paid for eight while the control plane compiled.
RUN cd "node_modules/@zk-oam/${CONTROLLER}" && npm run build && cp -r dist /dist

# Run stage: the same Debian release (the addon links against its glibc), no compilers, no npm cache, not root.
FROM ${RUN_BASE}
ENV NODE_ENV=production
# Each .mjs has its .map beside it: stack traces name the TypeScript sources.
ENV NODE_OPTIONS=--enable-source-maps
WORKDIR /app
COPY --from=build --chown=0:0 /dist/ /app/
# Numeric, so that runAsNonRoot can verify it.
USER 65532:65532
EXPOSE 8080
# --max-opt=2: V8 optimizes no further than Maglev. TurboFan's compiler is about 5 MiB of the node binary that every
# process touches once it optimizes a function, and a controller's short bursts gain little from it (docs/operations.md).
ENTRYPOINT ["node", "--max-opt=2", "/app/main.mjs"]
