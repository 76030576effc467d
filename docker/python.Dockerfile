# The Python runner: the runtime (with its full standard library) and the harness, nothing else.
# BASE_IMAGE is python:3.12-slim where a registry is reachable, or a debootstrap'd Debian base
# with Debian's python3 (docker/build-images.sh decides).
ARG BASE_IMAGE=python:3.12-slim
FROM ${BASE_IMAGE}
COPY runners/python/harness.py /opt/runner/harness.py
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONIOENCODING=utf-8 LANG=C.UTF-8
# The sandbox user gets a name and a home (the writable /tmp), so that code asking for either
# (os.homedir(), Path.home(), getpass.getuser()) works instead of failing for a reason of ours.
RUN echo 'sandbox:x:10001:10001:sandbox:/tmp:/usr/sbin/nologin' >> /etc/passwd \
 && echo 'sandbox:x:10001:' >> /etc/group
ENV HOME=/tmp
USER 10001:10001
WORKDIR /tmp
ENTRYPOINT ["python3", "-I", "-S", "-B", "/opt/runner/harness.py"]
