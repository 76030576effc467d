#!/usr/bin/env bash
# Brings the fleet of deploy/compose.yaml up with one command, on the Docker host the runner nodes
# will drive: builds the runner images on this host's engine (the runner nodes start sandboxes
# from them), writes deploy/.env with fresh secrets the first time, then builds the service image
# and starts every service. Extra arguments go to `up` (e.g. --no-build). docs/deploy.md.
set -euo pipefail
cd "$(dirname "$0")"
COMPOSE=${COMPOSE:-docker-compose}

secret() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }

if [ ! -f .env ]; then
  docker_gid=$(stat -c %g /var/run/docker.sock)
  umask 077
  cat >.env <<ENV
RUNNER_TOKEN=$(secret)
SESSION_SECRET=$(secret)
POSTGRES_PASSWORD=$(secret)
GRAFANA_ADMIN_PASSWORD=$(secret)
DOCKER_GID=$docker_gid
ENV
  echo "wrote deploy/.env (secrets; Grafana's admin password is GRAFANA_ADMIN_PASSWORD there)" >&2
fi

bash ../docker/build-images.sh
$COMPOSE -p code-runner -f compose.yaml --env-file .env up -d --build "$@"
