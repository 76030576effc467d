#!/usr/bin/env bash
# The whole suite after the same set-up as the service: engine, runtimes, images, test servers.
# Unless only some files are named: everything but the attack suite, then the attack suite under the
# docker driver, then under the oci driver (ATTACK_DRIVER=oci: crun started directly, no daemon).
# Ends with one plain summary line ("N passed, M failed, K skipped") for CI, over every pass;
# `npm run lint` counts as one check.
set -uo pipefail
cd "$(dirname "$0")/.."
bash docker/setup-host.sh --test || exit 1
bash docker/build-images.sh || exit 1
# Formatting, lint, the layer rules of src/ (no import cycle, imports only point down) and dead exports.
npm run -s lint
lint=$?
[ $lint -eq 0 ] || echo "npm run lint failed (exit $lint): see above"
reports=()
status=0
# One vitest pass: its summary (test/support/summary-reporter.ts) is kept for the end, a failure
# fails the run.
pass() {
  local report
  report=$(mktemp /tmp/vitest-summary.XXXXXX.json)
  reports+=("$report")
  SUMMARY_REPORT="$report" npx vitest run --reporter=default --reporter=./test/support/summary-reporter.ts "$@" || status=$?
}
if [ $# -gt 0 ]; then
  pass "$@"
else
  # The attack suite asserts how long a /healthz prober waits beside each attack (100 ms), so it runs
  # in passes of its own, beside nothing but other attack files: the browser and multi-node tests
  # load a 2-core machine enough to delay any process by that much.
  pass --exclude 'test/attacks/**'
  echo "The attack suite under the docker sandbox driver"
  pass test/attacks
  echo "The attack suite under the oci driver (ATTACK_DRIVER=oci)"
  ATTACK_DRIVER=oci pass test/attacks
fi
# Every failure is named again at the end, because CI keeps only the tail of the output: a failed
# test, a hook or file that failed outside its tests, an unhandled error, lint. A pass whose summary
# is missing or unreadable (vitest itself failed) counts as one failed check.
node -e '
  const fs = require("fs");
  const [lintStatus, ...reports] = process.argv.slice(1);
  let passed = lintStatus === "0" ? 1 : 0;
  let failed = 1 - passed;
  let skipped = 0;
  if (failed) console.log(`FAILED npm run lint (exit ${lintStatus})`);
  for (const file of reports) {
    let summary;
    try {
      summary = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
      console.log(`FAILED a vitest pass: its summary ${file} is missing or unreadable`);
      failed += 1;
      continue;
    }
    for (const { where, message } of summary.failures) {
      console.log(`FAILED ${where}`);
      console.log(message.split("\n").filter((line) => !/node_modules|node:internal/.test(line)).slice(0, 15).join("\n"));
    }
    passed += summary.passed;
    failed += summary.failed;
    skipped += summary.skipped;
  }
  console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$lint" "${reports[@]}" || echo "0 passed, 1 failed"
rm -f "${reports[@]}"
[ $status -ne 0 ] && exit $status
exit $lint
