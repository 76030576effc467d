#!/usr/bin/env bash
# The whole suite after the same set-up as the service: engine, runtimes, images, test servers.
# Then the attack suite a second time under the oci sandbox driver (ATTACK_DRIVER=oci: crun started
# directly, no daemon), unless only some files were named. Ends with one plain summary line
# ("N passed, M failed, K skipped") for CI, over both passes; `npm run lint` counts as one check.
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
oci_report=
oci_status=0
if [ $# -eq 0 ]; then
  oci_report=$(mktemp /tmp/vitest-report-oci.XXXXXX.json)
  echo "The attack suite under the oci driver (ATTACK_DRIVER=oci)"
  ATTACK_DRIVER=oci npx vitest run --reporter=default --reporter=json --outputFile="$oci_report" test/attacks
  oci_status=$?
fi
# A pass whose report is missing or unreadable (vitest itself failed) counts as one failed check.
node -e '
  const fs = require("fs");
  const [lintStatus, ...reports] = process.argv.slice(1);
  let passed = lintStatus === "0" ? 1 : 0;
  let failed = 1 - passed;
  let skipped = 0;
  for (const file of reports) {
    let r;
    try {
      r = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
      failed += 1;
      continue;
    }
    passed += r.numPassedTests;
    // a file that failed outside its tests (it did not load, a hook threw) fails the pass too
    failed += r.numFailedTests || (r.success === false ? 1 : 0);
    skipped += (r.numPendingTests || 0) + (r.numTodoTests || 0);
  }
  console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$lint" "$report" $oci_report || echo "0 passed, 1 failed"
rm -f "$report" $oci_report
[ $status -ne 0 ] && exit $status
[ $oci_status -ne 0 ] && exit $oci_status
exit $lint
