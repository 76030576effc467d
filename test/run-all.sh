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
# One vitest pass: its JSON report is kept for the summary, a failure fails the run.
pass() {
  local report
  report=$(mktemp /tmp/vitest-report.XXXXXX.json)
  reports+=("$report")
  npx vitest run --reporter=default --reporter=json --outputFile="$report" "$@" || status=$?
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
# A pass whose report is missing or unreadable (vitest itself failed) counts as one failed check.
node -e '
  const fs = require("fs");
  const [lintStatus, ...reports] = process.argv.slice(1);
  let passed = lintStatus === "0" ? 1 : 0;
  let failed = 1 - passed;
  let skipped = 0;
  if (failed) console.log(`FAILED npm run lint (exit ${lintStatus})`);
  for (const file of reports) {
    let r;
    try {
      r = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
      console.log(`FAILED a vitest pass: its report ${file} is missing or unreadable`);
      failed += 1;
      continue;
    }
    // Named again here, at the end, because CI keeps only the tail of its output.
    for (const result of r.testResults || []) {
      const failures = (result.assertionResults || []).filter((t) => t.status === "failed");
      for (const t of failures) {
        console.log(`FAILED ${result.name} > ${t.fullName}`);
        const message = String((t.failureMessages || [])[0] || "").split("\n");
        console.log(message.filter((line) => !/node_modules|node:internal/.test(line)).slice(0, 15).join("\n"));
      }
      if (result.status === "failed" && failures.length === 0) console.log(`FAILED ${result.name}: ${result.message || "(no message)"}`);
    }
    passed += r.numPassedTests;
    // a file that failed outside its tests (it did not load, a hook threw) fails the pass too
    failed += r.numFailedTests || (r.success === false ? 1 : 0);
    skipped += (r.numPendingTests || 0) + (r.numTodoTests || 0);
  }
  console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$lint" "${reports[@]}" || echo "0 passed, 1 failed"
rm -f "${reports[@]}"
[ $status -ne 0 ] && exit $status
exit $lint
