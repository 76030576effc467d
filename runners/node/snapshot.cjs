'use strict';
// Builds the runner image's V8 startup snapshot (docker/node.Dockerfile, at image build time):
//   node --snapshot-blob /opt/runner/harness.blob --build-snapshot /opt/runner/snapshot.cjs
// The image then starts `node --snapshot-blob /opt/runner/harness.blob`: Node's own bootstrap and
// the harness's code come from the blob instead of being compiled on every start (Debian's Node 18
// has no built-in snapshot or code cache, which made its start-up about twice the harness's work;
// docs/performance.md). The harness itself is the same file, run the same way once the blob is loaded:
// its built-ins are loaded then (node:vm cannot be in a user snapshot), and main gets them in order.
const { readFileSync } = require('node:fs');
const v8 = require('node:v8');

const HARNESS = process.env.HARNESS_SOURCE || '/opt/runner/harness.cjs';
const source = readFileSync(HARNESS, 'utf8');
new Function('snapshotHarness', source)((main, builtins, fail) => {
  v8.startupSnapshot.setDeserializeMainFunction(() => {
    // what the code under test sees in process.argv stays what it was when node ran the file
    process.argv.splice(1, 0, HARNESS);
    Promise.resolve()
      .then(() => main(...builtins.map((name) => require(name))))
      .catch(fail);
  });
});
