import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A wrapper for an OCI runtime binary (crun), placed first on PATH under the runtime's own name, as
 * the oci driver picks its binary: while the flag file exists it fails `kill` and `delete` (exit 1,
 * a message on stderr, as crun does when it cannot), and otherwise execs the real binary. Every
 * kill and delete, refused or passed on, is logged for a failing test to print.
 */
export class RefusingRuntime {
  readonly dir = mkdtempSync(path.join(os.tmpdir(), 'refusing-runtime-'));
  private readonly flag = path.join(this.dir, 'refuse');
  private readonly logFile = path.join(this.dir, 'log');

  constructor(
    readonly name: string,
    real: string,
  ) {
    const script = `#!/bin/sh
# The runtime's command is its first argument that is not a global option (--root takes a value).
command=''
skip=0
for arg in "$@"; do
  if [ "$skip" = 1 ]; then skip=0; continue; fi
  case "$arg" in
    --root) skip=1 ;;
    -*) ;;
    *) command="$arg"; break ;;
  esac
done
case "$command" in
  kill|delete)
    if [ -e '${this.flag}' ]; then
      echo "$(date +%T.%N) refused: $*" >> '${this.logFile}'
      echo "refused by the test: ${name} will not $command now" >&2
      exit 1
    fi
    echo "$(date +%T.%N) passed on: $*" >> '${this.logFile}'
    ;;
esac
exec '${real}' "$@"
`;
    writeFileSync(path.join(this.dir, name), script);
    chmodSync(path.join(this.dir, name), 0o755);
    writeFileSync(this.logFile, '');
  }

  /** PATH with the wrapper first. */
  pathWithWrapper(searchPath = process.env.PATH ?? ''): string {
    return `${this.dir}:${searchPath}`;
  }

  refuse(): void {
    writeFileSync(this.flag, '');
    this.note('-- refusing kill and delete from now on');
  }

  accept(): void {
    rmSync(this.flag, { force: true });
    this.note('-- accepting everything again');
  }

  refused(): { kill: number; remove: number } {
    const lines = this.log().split('\n');
    const count = (command: string) => lines.filter((line) => new RegExp(`refused: .* ${command} `).test(line)).length;
    return { kill: count('kill'), remove: count('delete') };
  }

  log(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private note(line: string): void {
    writeFileSync(this.logFile, `${new Date().toISOString().slice(11, 23)} ${line}\n`, { flag: 'a' });
  }
}
