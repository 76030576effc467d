#!/usr/bin/env bash
# The whole suite after the same set-up as the service: engine, runtimes, images, test servers.
# Ends with one plain summary line ("N passed, M failed, K skipped") for CI; `npm run lint` counts as one check.
set -uo pipefail
cd "$(dirname "$0")/.."
bash docker/setup-host.sh --test || exit 1
bash docker/build-images.sh || exit 1
# Formatting, lint, the layer rules of src/ (no import cycle, imports only point down) and dead exports.
npm run -s lint
lint=$?
[ $lint -eq 0 ] || echo "npm run lint failed (exit $lint): see above"
report=$(mktemp /tmp/vitest-report.XXXXXX.json)
npx vitest run --reporter=default --reporter=json --outputFile="$report" "$@"
status=$?
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = (r.numPendingTests || 0) + (r.numTodoTests || 0);
  const lint = process.argv[2] === "0" ? 0 : 1; // a failed lint counts as one failed check
  console.log(`${r.numPassedTests + 1 - lint} passed, ${r.numFailedTests + lint} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report" "$lint" || echo "0 passed, 1 failed"
rm -f "$report"
[ $status -ne 0 ] && exit $status
exit $lint
