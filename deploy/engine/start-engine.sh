#!/bin/sh
# Starts dockerd on the pod's shared socket, the way gVisor runs it (no iptables, no bridge: every
# sandbox has network "none"), loads the runner images once it answers, then stays with dockerd.
set -eu
socket=${ENGINE_SOCKET:-/run/engine/docker.sock}
dockerd --host="unix://$socket" --group="${ENGINE_SOCKET_GROUP:-1000}" \
  --iptables=false --ip6tables=false --bridge=none &
engine=$!
until docker -H "unix://$socket" version >/dev/null 2>&1; do
  kill -0 "$engine" 2>/dev/null || exit 1
  sleep 0.5
done
docker -H "unix://$socket" load -q -i /images/runner-images.tar
wait "$engine"
