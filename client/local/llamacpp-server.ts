import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { groveHome } from '../../runtime/paths';
import { freePort } from '../temporal-server/ports';
import { spawnGuarded, type GuardedProcess } from './guarded-spawn';
import { ensureLocalModelFile } from './local-model-file';

/** llama.cpp's OpenAI-compatible server, from PyPI: compiled from source once, the wheel cached under .grove. */
export const LLAMACPP_PACKAGE = 'llama-cpp-python==0.3.36';

export interface LlamaCppPaths {
  wheels: string;
  venv: string;
  python: string;
}

export function llamaCppPaths(env: NodeJS.ProcessEnv = process.env): LlamaCppPaths {
  const home = groveHome(env);
  const venv = join(home, 'llamacpp', 'venv');
  return { wheels: join(home, 'wheels', 'llama-cpp-python-0.3.36-portable'), venv, python: join(venv, 'bin', 'python') };
}

/**
 * Makes llama.cpp's server runnable: builds the `llama-cpp-python` wheel from its PyPI source
 * when it is not cached (portable: `-DGGML_NATIVE=OFF`, so the wheel runs on any x86-64; about
 * 5–15 minutes on 2 cores), and installs it with its server extras into a venv under .grove.
 * Idempotent; every step says what it does.
 *
 * @example
 * prepareLlamaCpp({ log: console.log });   // then startLlamaCppServer()
 */
export function prepareLlamaCpp(opts: { log?: (line: string) => void; env?: NodeJS.ProcessEnv } = {}): LlamaCppPaths {
  const log = opts.log ?? (() => {});
  const paths = llamaCppPaths(opts.env);
  const run = (cmd: string, args: string[], extraEnv: Record<string, string> = {}) => {
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...extraEnv } });
    if (r.status !== 0) throw new Error(`llama.cpp: \`${cmd} ${args.join(' ')}\` failed (exit ${r.status})`);
  };
  mkdirSync(paths.wheels, { recursive: true });
  const wheel = () => readdirSync(paths.wheels).find((f) => f.startsWith('llama_cpp_python-') && f.endsWith('.whl'));
  if (!wheel()) {
    log(`llama.cpp: building ${LLAMACPP_PACKAGE} from source into ${paths.wheels} (once; several minutes)`);
    const started = Date.now();
    run('python3', ['-m', 'pip', 'wheel', '--no-deps', '--disable-pip-version-check', '-w', paths.wheels, LLAMACPP_PACKAGE], {
      CMAKE_ARGS: '-DGGML_NATIVE=OFF',
      CMAKE_BUILD_PARALLEL_LEVEL: '2',
    });
    log(`llama.cpp: wheel built in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  if (!existsSync(paths.python)) {
    log(`llama.cpp: creating ${paths.venv}`);
    run('python3', ['-m', 'venv', paths.venv]);
  }
  const installed = spawnSync(paths.python, ['-c', 'import llama_cpp.server, uvicorn'], { stdio: 'ignore' }).status === 0;
  if (!installed) {
    log('llama.cpp: installing the wheel and its server extras from PyPI');
    run(paths.python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `${join(paths.wheels, wheel()!)}[server]`]);
  }
  return paths;
}

export interface LlamaCppServer {
  baseURL: string;
  process: GuardedProcess;
  stop(): Promise<void>;
}

/**
 * Starts llama.cpp's OpenAI-compatible server on a free loopback port with the local GGUF model
 * and `--chat_format chatml-function-calling` (tool calls), and waits until it answers.
 *
 * @example
 * const server = await startLlamaCppServer();   // server.baseURL: http://127.0.0.1:PORT/v1, model "smollm2"
 */
export async function startLlamaCppServer(opts: { log?: (line: string) => void; env?: NodeJS.ProcessEnv; threads?: number } = {}): Promise<LlamaCppServer> {
  const paths = llamaCppPaths(opts.env);
  if (!existsSync(paths.python)) throw new Error(`llama.cpp: no server installed in ${paths.venv}; run \`npx tsx scripts/llamacpp.ts\` first`);
  const model = await ensureLocalModelFile({ log: opts.log, env: opts.env });
  const port = await freePort();
  const proc = spawnGuarded(paths.python, [
    '-m', 'llama_cpp.server', '--model', model, '--model_alias', 'smollm2', '--chat_format', 'chatml-function-calling',
    '--host', '127.0.0.1', '--port', String(port), '--n_ctx', '4096', '--n_threads', String(opts.threads ?? 2), '--verbose', 'False',
  ]);
  let stderr = '';
  proc.child.stderr?.on('data', (d: Buffer) => { if (stderr.length < 20_000) stderr += d; });
  const baseURL = `http://127.0.0.1:${port}/v1`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`llama.cpp server exited (${proc.child.exitCode}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    try {
      const res = await fetch(`${baseURL}/models`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`llama.cpp server did not answer within 120 s: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  opts.log?.(`llama.cpp: server ready at ${baseURL} (model smollm2)`);
  return { baseURL, process: proc, stop: () => proc.stop() };
}

/** Whether a cached wheel exists (for messages). */
export function llamaCppWheelCached(env?: NodeJS.ProcessEnv): boolean {
  const { wheels } = llamaCppPaths(env);
  return existsSync(wheels) && readdirSync(wheels).some((f) => f.endsWith('.whl') && statSync(join(wheels, f)).size > 0);
}
