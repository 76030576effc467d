# The JavaScript/TypeScript runner: Node and the harness, nothing else (TypeScript is transpiled
# on the host). BASE_IMAGE is node:20-slim where a registry is reachable, or a debootstrap'd
# Debian base with Debian's nodejs (docker/build-images.sh decides).
ARG BASE_IMAGE=node:20-slim
FROM ${BASE_IMAGE}
COPY runners/node/harness.cjs /opt/runner/harness.cjs
ENV LANG=C.UTF-8
USER 10001:10001
WORKDIR /tmp
ENTRYPOINT ["node", "/opt/runner/harness.cjs"]
