import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs the docker CLI; a failure says what was run and what docker printed. */
export async function docker(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run('docker', args, { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 });
    return stdout.trim();
  } catch (error) {
    const failed = error as { code?: number; stderr?: string; stdout?: string };
    throw new Error(`docker ${args.join(' ')} exited ${failed.code}: ${failed.stderr ?? ''}${failed.stdout ?? ''}`);
  }
}
