import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/**
 * Runs `grove ...` as a user would, in its own process (model and Temporal settings of the test
 * process are cleared unless given).
 *
 * @example
 * const { code, stdout } = await runCli(['store', 'stats', '--json'], { GROVE_STORE_URL: url });
 */
export function runCli(args: string[], extraEnv: Record<string, string | undefined> = {}, timeoutMs = 60_000) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'grove'), ...args], {
      cwd: ROOT,
      env: { ...process.env, TEMPORAL_ADDRESS: undefined, OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined, ...extraEnv },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
