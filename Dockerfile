# The service's own image. The runner images (docker/*.Dockerfile) are built separately with
# `npm run images` on the Docker host the service drives through its socket:
#   docker run -d -p 8080:8080 -v /var/run/docker.sock:/var/run/docker.sock --group-add "$(stat -c %g /var/run/docker.sock)" \
#     -v code-runner-data:/data code-runner
# The service needs the Docker socket, which is root-equivalent on that host: run it on the
# isolated runner host only. User code never sees the socket (see docs/security.md).
# It runs as the unprivileged `node` user; give it the socket's group (--group-add, the GID of
# /var/run/docker.sock). It writes only to DATA_DIR and /tmp, so it runs with a read-only root
# (--read-only --tmpfs /tmp); deploy/compose.yaml runs the fleet that way (docs/deploy.md).
ARG BASE_IMAGE=node:20-bookworm-slim

# Compiles src/ to dist/: the service runs on plain node, without a TypeScript loader in its process.
FROM ${BASE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json docker/npm-install.sh ./
RUN sh npm-install.sh
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run -s build

FROM ${BASE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
# glibc serves blocks of 32 KiB and more from mmap, so they go back to the system when freed. Left to
# itself it raises that threshold to the largest block ever freed (9 MB files read at start-up), and freed
# memory then stays resident in the heap: 30-40 MB of the service's RSS (docs/performance.md, "Memory").
ENV MALLOC_MMAP_THRESHOLD_=32768
COPY package.json package-lock.json docker/npm-install.sh ./
RUN sh npm-install.sh --omit=dev && rm npm-install.sh && npm cache clean --force
COPY --from=build /app/dist ./dist
# Owned by the user the service runs as, so that a fresh volume mounted here is writable by it.
RUN mkdir /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node","--max-semi-space-size=2","dist/main.js"]
