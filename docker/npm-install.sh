#!/bin/sh
# Installs the npm dependencies exactly as locked; extra arguments go to npm (the service image
# passes --omit=dev). npm 11 refuses `npm ci` on this lockfile over optional platform packages it
# never lists (rollup's, under vitest); `npm install` then installs the same locked versions and
# leaves the lockfile unchanged.
set -e
npm ci --no-audit --no-fund --loglevel=error "$@" 2>/dev/null || npm install --no-audit --no-fund --loglevel=error "$@"
