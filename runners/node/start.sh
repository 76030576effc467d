#!/bin/sh
# The runner image's entry point (docker/node.Dockerfile). A V8 startup snapshot loads only under
# the V8 flags it was built with, and the host sets one: the heap limit in NODE_OPTIONS. Under the
# limit the blob was built for, the harness starts from the blob; under any other it starts from
# its source, as it did before the blob (slower, the same behaviour).
read -r built < /opt/runner/harness.blob.options
if [ "${NODE_OPTIONS-}" = "$built" ]; then exec node --snapshot-blob /opt/runner/harness.blob; fi
exec node /opt/runner/harness.cjs
