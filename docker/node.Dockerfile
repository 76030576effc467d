# The JavaScript/TypeScript runner: Node and the harness, nothing else (TypeScript is transpiled
# on the host). BASE_IMAGE is node:20-slim where a registry is reachable, or a debootstrap'd
# Debian base with Debian's nodejs (docker/build-images.sh decides).
ARG BASE_IMAGE=node:20-slim
FROM ${BASE_IMAGE}
COPY runners/node/harness.cjs runners/node/snapshot.cjs runners/node/start.sh /opt/runner/
# A V8 startup snapshot of Node's bootstrap with the harness loaded (runners/node/snapshot.cjs):
# each sandbox starts from it instead of compiling both again (docs/performance.md, "Start-up").
# V8 refuses a blob built under other flags, so it is built under the heap limit the host sets for
# the default sandbox memory (256 MB x 0.75, src/core/sandbox/engine.ts); start.sh falls back to
# the source under any other limit.
ARG SNAPSHOT_NODE_OPTIONS=--max-old-space-size=192
RUN NODE_OPTIONS="$SNAPSHOT_NODE_OPTIONS" node --snapshot-blob /opt/runner/harness.blob --build-snapshot /opt/runner/snapshot.cjs \
 && printf '%s\n' "$SNAPSHOT_NODE_OPTIONS" > /opt/runner/harness.blob.options
ENV LANG=C.UTF-8
# The sandbox user gets a name and a home (the writable /tmp), so that code asking for either
# (os.homedir(), Path.home(), getpass.getuser()) works instead of failing for a reason of ours.
RUN echo 'sandbox:x:10001:10001:sandbox:/tmp:/usr/sbin/nologin' >> /etc/passwd \
 && echo 'sandbox:x:10001:' >> /etc/group
ENV HOME=/tmp
USER 10001:10001
WORKDIR /tmp
ENTRYPOINT ["/opt/runner/start.sh"]
