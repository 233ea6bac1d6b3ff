import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enginePaths } from './engine-paths';

/**
 * A memory snapshot of a freshly loaded Pyodide — taken once per machine, before any code has
 * run in it — from which every Python sandbox process starts: ~0.5 s instead of ~1.6 s (10–20×
 * faster on a busy machine), which matters because a Python run with tests needs two processes.
 *
 * The snapshot is made by a separate, trusted Node process (no job, no user code, nothing but
 * `loadPyodide`), written atomically to a folder only this user can write, and read by sandbox
 * processes like the engine files. A folder that another user owns or can write is not trusted:
 * grove then starts Pyodide cold. `GROVE_PYODIDE_SNAPSHOT=off` turns snapshots off.
 */
const MAKER = String.raw`
const { loadPyodide } = require(process.argv[1] + '/pyodide.js');
const fs = require('fs');
(async () => {
  const py = await loadPyodide({ indexURL: process.argv[1] + '/', env: { HOME: '/home/pyodide' }, stdout: () => {}, stderr: () => {}, _makeSnapshot: true });
  const tmp = process.argv[2] + '.' + process.pid + '.tmp';
  fs.writeFileSync(tmp, py.makeMemorySnapshot(), { mode: 0o644 });
  fs.renameSync(tmp, process.argv[2]);
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
`;

let making: Promise<void> | undefined;

/**
 * The snapshot's path when it is ready; otherwise starts making it (once per process) and says
 * `undefined`, so this run starts cold and later ones use it.
 *
 * @example
 * const snapshot = pyodideSnapshot(); // '/tmp/grove-pyodide-314.0.7-0/snapshot.bin' or undefined
 */
export function pyodideSnapshot(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if ((env.GROVE_PYODIDE_SNAPSHOT ?? '').toLowerCase() === 'off') return undefined;
  const dir = snapshotDir();
  if (!dir) return undefined;
  const file = join(dir, 'snapshot.bin');
  if (existsSync(file)) return file;
  making ??= new Promise<void>((resolve) => {
    const child = spawn(process.execPath, ['-e', MAKER, enginePaths('python').entry, file], { stdio: ['ignore', 'ignore', 'pipe'], env: {} });
    child.unref();
    child.stderr!.resume();
    child.on('exit', () => { making = undefined; resolve(); });
    child.on('error', () => { making = undefined; resolve(); });
  });
  return undefined;
}

/** Waits for a snapshot being made (tests and benchmarks that want warm starts from the first run). */
export async function pyodideSnapshotReady(): Promise<string | undefined> {
  pyodideSnapshot();
  await making;
  return pyodideSnapshot();
}

/** The folder of this Pyodide version's snapshot, made if missing; undefined when it cannot be trusted. */
function snapshotDir(): string | undefined {
  let version = 'unknown';
  try {
    version = (require(join(enginePaths('python').entry, 'package.json')) as { version: string }).version;
  } catch {
    // an unversioned copy: still one folder
  }
  const dir = join(tmpdir(), `grove-pyodide-${version}-${process.getuid?.() ?? 0}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    const st = statSync(dir);
    const mine = process.getuid === undefined || st.uid === process.getuid();
    return mine && (st.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}
