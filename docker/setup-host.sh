#!/usr/bin/env bash
# Makes sure this host can run the service: npm dependencies, a running Docker engine,
# and the crun / runsc runtimes registered with it. Idempotent; safe to run on every start.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[setup] %s\n' "$*" >&2; }
as_root() { [ "$(id -u)" = 0 ]; }

apt_install() {
  as_root || { log "need root to install: $*"; return 1; }
  if [ ! -f /tmp/.code-runner-apt-updated ]; then apt-get update -qq && touch /tmp/.code-runner-apt-updated; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# 1. npm dependencies, exactly as locked.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm dependencies"
  sh docker/npm-install.sh
fi

# 2. A Docker engine. An engine that already answers is used as it is.
engine_up() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }
if ! command -v dockerd >/dev/null 2>&1 && ! engine_up; then
  log "installing docker.io, crun, runsc and debootstrap from Debian's packages"
  apt_install docker.io crun runsc debootstrap ca-certificates
fi
command -v debootstrap >/dev/null 2>&1 || apt_install debootstrap || true
# The oci sandbox driver (SANDBOX_DRIVER=oci) runs crun (or runsc) itself and unpacks images with tar.
command -v crun >/dev/null 2>&1 || apt_install crun || true
command -v tar >/dev/null 2>&1 || apt_install tar || true

# The test suite starts its own PostgreSQL, Redis and nginx servers and a headless Chromium from
# Debian's packages, and checks deploy/compose.yaml with Debian's docker-compose.
if [ "${1:-}" = "--test" ]; then
  { ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v redis-server >/dev/null 2>&1; } \
    || { log "installing postgresql and redis-server for the tests"; apt_install postgresql redis-server; }
  { command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } \
    || { log "installing nginx for the multi-node tests"; apt_install nginx-light && { systemctl disable --now nginx 2>/dev/null || service nginx stop 2>/dev/null || true; }; }
  command -v chromium >/dev/null 2>&1 || { log "installing chromium for the dashboard's browser tests"; apt_install chromium fonts-dejavu-core; }
  command -v docker-compose >/dev/null 2>&1 || { log "installing docker-compose to check deploy/compose.yaml"; apt_install docker-compose; }
fi

# 3. Register the faster and the stronger runtimes (crun, gVisor) when this script owns the engine config.
register_runtimes() {
  as_root || return 0
  local conf=/etc/docker/daemon.json want
  want=$(node -e '
    const fs = require("fs");
    const conf = fs.existsSync(process.argv[1]) ? JSON.parse(fs.readFileSync(process.argv[1], "utf8") || "{}") : {};
    conf.runtimes = conf.runtimes || {};
    const which = (b) => { try { return require("child_process").execSync("command -v " + b, { shell: "/bin/bash" }).toString().trim(); } catch { return ""; } };
    const crun = which("crun"), runsc = which("runsc");
    if (crun) conf.runtimes.crun = { path: crun };
    // ptrace works without KVM; the sandboxes never have a network, so gVisor needs none either.
    if (runsc) conf.runtimes.runsc = { path: runsc, runtimeArgs: ["--platform=ptrace", "--network=none"] };
    process.stdout.write(JSON.stringify(conf, null, 2));
  ' "$conf")
  if [ ! -f "$conf" ] || [ "$(cat "$conf")" != "$want" ]; then
    mkdir -p /etc/docker && printf '%s\n' "$want" > "$conf"
    log "registered runtimes in $conf"
    pkill -HUP -x dockerd 2>/dev/null || true
  fi
}
register_runtimes

# crun refuses a "hybrid" cgroup layout where a controller (here hugetlb) is left on the cgroup2
# mount while the others are on v1; binding it to a v1 hierarchy too makes crun usable.
fix_hybrid_cgroups() {
  as_root || return 0
  [ -f /sys/fs/cgroup/unified/cgroup.controllers ] || return 0
  local controller
  for controller in $(cat /sys/fs/cgroup/unified/cgroup.controllers); do
    [ -d "/sys/fs/cgroup/$controller" ] && mountpoint -q "/sys/fs/cgroup/$controller" && continue
    mkdir -p "/sys/fs/cgroup/$controller" && mount -t cgroup -o "$controller" cgroup "/sys/fs/cgroup/$controller" \
      && log "bound cgroup controller $controller to a v1 hierarchy (for crun)" || true
  done
}
fix_hybrid_cgroups

if ! engine_up; then
  as_root || { log "no Docker engine answers and this user cannot start one"; exit 1; }
  log "starting dockerd"
  mkdir -p /var/log
  # In a session of its own, as an init system starts it. The kernel weighs each session's processes
  # as one group (autogroups) and the service raises its own session's weight (SERVICE_NICE,
  # docs/security.md "CPU precedence"): inside the caller's session, dockerd's threads would compete
  # with the service's event loop one for one while they copy a sandbox's output flood to it.
  setsid nohup dockerd >/var/log/dockerd.log 2>&1 </dev/null &
  for _ in $(seq 1 60); do engine_up && break; sleep 0.5; done
  engine_up || { log "dockerd did not come up; see /var/log/dockerd.log"; exit 1; }
fi
log "docker engine $(docker version --format '{{.Server.Version}}') is up; runtimes: $(docker info --format '{{range $k, $v := .Runtimes}}{{$k}} {{end}}')"
