import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The harnesses started the way the runner images start them (docker/*.Dockerfile), outside an
 * image: Python from the harness's bytecode, Node from a V8 startup snapshot with the harness
 * loaded (runners/node/snapshot.cjs). Built once into a temporary folder, removed at exit; `python` and `node`
 * are the interpreters to build with and to run.
 */
export function imageStartCommands(python = 'python3', node = 'node'): { python: string[]; node: string[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'code-runner-harness-start-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const pyc = path.join(dir, 'harness.pyc');
  execFileSync(python, ['-c', `import py_compile as c; c.compile('runners/python/harness.py', cfile='${pyc}', doraise=True)`]);
  const blob = path.join(dir, 'harness.blob');
  execFileSync(node, ['--snapshot-blob', blob, '--build-snapshot', 'runners/node/snapshot.cjs'], {
    env: { ...process.env, NODE_OPTIONS: '', HARNESS_SOURCE: path.resolve('runners/node/harness.cjs') },
  });
  return { python: [python, '-I', '-S', '-B', pyc], node: [node, '--snapshot-blob', blob] };
}
