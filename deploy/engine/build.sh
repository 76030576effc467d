#!/usr/bin/env bash
# Builds code-runner-engine:latest from this folder: saves the runner images of this host's engine
# (`npm run images` builds them) into it. Push it, with code-runner:latest, to your cluster's registry.
set -euo pipefail
cd "$(dirname "$0")"
PYTHON_IMAGE=${PYTHON_IMAGE:-code-runner-python:latest}
NODE_IMAGE=${NODE_IMAGE:-code-runner-node:latest}
trap 'rm -f runner-images.tar' EXIT
docker save -o runner-images.tar "$PYTHON_IMAGE" "$NODE_IMAGE"
docker build -t "${ENGINE_IMAGE:-code-runner-engine:latest}" .
