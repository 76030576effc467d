# The JavaScript/TypeScript runner: Node and the harness, nothing else (TypeScript is transpiled
# on the host). BASE_IMAGE is node:20-slim where a registry is reachable, or a debootstrap'd
# Debian base with Debian's nodejs (docker/build-images.sh decides).
ARG BASE_IMAGE=node:20-slim
FROM ${BASE_IMAGE}
COPY runners/node/harness.cjs /opt/runner/harness.cjs
ENV LANG=C.UTF-8
# The sandbox user gets a name and a home (the writable /tmp), so that code asking for either
# (os.homedir(), Path.home(), getpass.getuser()) works instead of failing for a reason of ours.
RUN echo 'sandbox:x:10001:10001:sandbox:/tmp:/usr/sbin/nologin' >> /etc/passwd \
 && echo 'sandbox:x:10001:' >> /etc/group
ENV HOME=/tmp
USER 10001:10001
WORKDIR /tmp
ENTRYPOINT ["node", "/opt/runner/harness.cjs"]
