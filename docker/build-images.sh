#!/usr/bin/env bash
# Builds the two runner images (python, node) from docker/*.Dockerfile and runners/.
# Idempotent: an image whose inputs have not changed is kept. Works with no container registry:
# when the configured base image cannot be had, a Debian base is made with debootstrap and imported.
# Then, where the oci driver can run (crun installed), unpacks each image's root filesystem where
# the service will look for it (DATA_DIR/oci/rootfs or SANDBOX_ROOTFS_DIR, keyed by the image id),
# with the driver's own code, so that the first start with SANDBOX_DRIVER=oci unpacks nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON_IMAGE=${PYTHON_IMAGE:-code-runner-python:latest}
NODE_IMAGE=${NODE_IMAGE:-code-runner-node:latest}
PYTHON_BASE_IMAGE=${PYTHON_BASE_IMAGE:-python:3.12-slim}
NODE_BASE_IMAGE=${NODE_BASE_IMAGE:-node:20-slim}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

log() { printf '[images] %s\n' "$*" >&2; }

# Echoes an image that can serve as base: the configured one if present or pullable,
# else a local debootstrap base holding Debian's package for the runtime.
ensure_base() { # $1 configured base, $2 local fallback tag, $3 Debian package
  local base=$1 fallback=$2 pkg=$3
  if docker image inspect "$base" >/dev/null 2>&1; then echo "$base"; return; fi
  if docker image inspect "$fallback" >/dev/null 2>&1; then echo "$fallback"; return; fi
  if timeout 60 docker pull -q "$base" >/dev/null 2>&1; then echo "$base"; return; fi
  log "cannot pull $base; building $fallback with debootstrap (Debian $pkg)"
  command -v debootstrap >/dev/null || { log "debootstrap missing: run docker/setup-host.sh"; exit 1; }
  local dir; dir=$(mktemp -d /tmp/code-runner-rootfs.XXXXXX)
  debootstrap --variant=minbase --include="$pkg" bookworm "$dir" "$DEBIAN_MIRROR" >"$dir.log" 2>&1 \
    || { log "debootstrap failed, see $dir.log"; exit 1; }
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/* "$dir"/usr/share/doc/* "$dir"/usr/share/man/*
  tar -C "$dir" -c . | docker import - "$fallback" >/dev/null || { log "docker import failed"; exit 1; }
  rm -rf "$dir" "$dir.log"
  echo "$fallback"
}

build() { # $1 language dir, $2 image, $3 base image
  local lang=$1 image=$2 base=$3 hash current
  hash=$( (echo "$base"; cat "docker/$lang.Dockerfile" runners/"$lang"/*) | sha256sum | cut -c1-16)
  current=$(docker image inspect -f '{{index .Config.Labels "code-runner.inputs"}}' "$image" 2>/dev/null || true)
  if [ "$current" = "$hash" ]; then log "$image is up to date"; return; fi
  log "building $image from $base"
  docker build -q -f "docker/$lang.Dockerfile" --build-arg "BASE_IMAGE=$base" \
    --label "code-runner.inputs=$hash" -t "$image" . >/dev/null
}

only=${1:-all}
if [ "$only" = all ] || [ "$only" = python ]; then
  build python "$PYTHON_IMAGE" "$(ensure_base "$PYTHON_BASE_IMAGE" code-runner-base-python:bookworm python3)" &
fi
if [ "$only" = all ] || [ "$only" = node ]; then
  build node "$NODE_IMAGE" "$(ensure_base "$NODE_BASE_IMAGE" code-runner-base-node:bookworm nodejs)" &
fi
fail=0; for job in $(jobs -p); do wait "$job" || fail=1; done
[ $fail -eq 0 ] || exit $fail

images=()
if [ "$only" = all ] || [ "$only" = python ]; then images+=("$PYTHON_IMAGE"); fi
if [ "$only" = all ] || [ "$only" = node ]; then images+=("$NODE_IMAGE"); fi
if ! command -v crun >/dev/null; then
  log "crun is not installed: the oci driver's root filesystems are not unpacked"
elif [ ${#images[@]} -gt 0 ]; then
  # DATA_DIR's default is the service's (src/platform/config.ts), relative to this folder as for npm start
  node --import tsx src/core/sandbox/oci/unpack-images.ts --data-dir "${DATA_DIR:-./data}" \
    ${SANDBOX_ROOTFS_DIR:+--rootfs-dir "$SANDBOX_ROOTFS_DIR"} --docker-socket "${DOCKER_SOCKET:-/var/run/docker.sock}" \
    "${images[@]}" | sed 's/^/[images] oci rootfs /' >&2 || { log "unpacking for the oci driver failed"; exit 1; }
fi
