#!/usr/bin/env bash
# The whole suite after the same set-up as the service: engine, runtimes, images, test servers.
# Ends with one plain summary line ("N passed, M failed, K skipped") for CI.
set -uo pipefail
cd "$(dirname "$0")/.."
bash docker/setup-host.sh --test || exit 1
bash docker/build-images.sh || exit 1
report=$(mktemp /tmp/vitest-report.XXXXXX.json)
npx vitest run --reporter=default --reporter=json --outputFile="$report" "$@"
status=$?
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = (r.numPendingTests || 0) + (r.numTodoTests || 0);
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report" || echo "0 passed, 1 failed"
rm -f "$report"
exit $status
