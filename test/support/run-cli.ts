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
export function runCli(args: string[], extraEnv: Record<string, string | undefined> = {}, timeoutMs = 60_000, watch: { stderr?: (text: string) => void; stopWhen?: (stdout: string) => boolean } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'grove'), ...args], {
      cwd: ROOT,
      env: { ...process.env, TEMPORAL_ADDRESS: undefined, OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined, ...extraEnv },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      // A long-running command (a worker) is stopped once it has said what the test waits for.
      if (watch.stopWhen?.(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      watch.stderr?.(stderr);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs a TypeScript file of the repository in its own Node process (through tsx), as a user runs
 * an example; resolves when it exits (killed after `timeoutMs`).
 *
 * @example
 * const { code, stdout } = await runScript('examples/streaming/watch-run.ts', env, ['Say hi!']);
 */
export function runScript(file: string, env: NodeJS.ProcessEnv, args: string[] = [], timeoutMs = 150_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', 'tsx/cjs', file, ...args], { cwd: ROOT, env });
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
