# The Python runner: the runtime (with its full standard library) and the harness, nothing else.
# BASE_IMAGE is python:3.12-slim where a registry is reachable, or a debootstrap'd Debian base
# with Debian's python3 (docker/build-images.sh decides).
ARG BASE_IMAGE=python:3.12-slim
FROM ${BASE_IMAGE}
COPY runners/python/harness.py /opt/runner/harness.py
# The harness runs from its bytecode, compiled here: a main script given as source is compiled
# on every start (docs/performance.md, "Start-up"). The standard library's .pyc come with the base.
RUN python3 -c "import py_compile as c; c.compile('/opt/runner/harness.py', cfile='/opt/runner/harness.pyc', doraise=True)"
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONIOENCODING=utf-8 LANG=C.UTF-8
# The sandbox user gets a name and a home (the writable /tmp), so that code asking for either
# (os.homedir(), Path.home(), getpass.getuser()) works instead of failing for a reason of ours.
RUN echo 'sandbox:x:10001:10001:sandbox:/tmp:/usr/sbin/nologin' >> /etc/passwd \
 && echo 'sandbox:x:10001:' >> /etc/group
ENV HOME=/tmp
USER 10001:10001
WORKDIR /tmp
ENTRYPOINT ["python3", "-I", "-S", "-B", "/opt/runner/harness.pyc"]
