import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The full path of an executable named `name` on PATH, or undefined. */
export function findExecutable(name: string, searchPath: string = process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin'): string | undefined {
  for (const dir of searchPath.split(':').filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * One OCI runtime binary (crun, runc or runsc) with the service's own state directory as its
 * `--root`: every container the service starts is listed, killed and deleted there, and nowhere
 * else, so that no daemon has to keep track of them.
 */
export class RuntimeCli {
  constructor(
    /** crun, runc or runsc. */
    readonly name: string,
    readonly binary: string,
    readonly stateDir: string,
    private readonly extraGlobalArgs: readonly string[] = [],
  ) {}

  /** The arguments of one runtime command, global options first. */
  args(...command: string[]): string[] {
    return ['--root', this.stateDir, ...this.extraGlobalArgs, ...command];
  }

  /** Runs one command to its end; never rejects (a missing binary is code -1). */
  run(...command: string[]): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(this.binary, this.args(...command), { timeout: 30_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr: stderr || (error && typeof error.code !== 'number' ? error.message : '') });
      });
    });
  }

  /** The ids of the containers in the state directory (`list` in JSON form). */
  async list(): Promise<Array<{ id: string; status: string }>> {
    const result = await this.run('list', '--format', 'json');
    if (result.code !== 0) throw new Error(`${this.name} list failed: ${result.stderr.trim()}`);
    const parsed = JSON.parse(result.stdout.trim() || '[]') as Array<{ id: string; status: string }> | null;
    return (parsed ?? []).map(({ id, status }) => ({ id, status }));
  }
}
