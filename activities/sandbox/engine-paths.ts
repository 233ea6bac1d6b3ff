import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveEngine } from '../../runtime/optional-engine';
import { asEngineFailure } from '../engine-failure';

/** The sandbox's engines: QuickJS for JavaScript and TypeScript, Pyodide for Python. */
export type Engine = 'js' | 'python';

export interface EnginePaths {
  /** What the child loads: the directory of `pyodide` (pyodide.js, the WASM core, the standard library), or the entry file of `quickjs-emscripten`. */
  entry: string;
  /** Every directory a child of this engine may read: its engine's packages and nothing else. */
  readable: string[];
}

const cached = new Map<Engine, EnginePaths>();

/**
 * Where an engine is installed, resolved from grove's own dependencies or the project's (never
 * a CDN): the child process gets read access to these directories only. The engines are optional
 * peer dependencies: one that is not installed fails with a non-retryable `GroveEngineMissing`
 * whose one line names the package to add — an `ApplicationFailure`, so a `run_code` tool or a
 * `code-tests` evaluator passes it on as the activity's failure rather than as the code's.
 *
 * @example
 * const { entry, readable } = enginePaths('python'); // entry: '/app/node_modules/pyodide'
 */
export function enginePaths(engine: Engine): EnginePaths {
  let paths = cached.get(engine);
  if (!paths) {
    try {
      paths = engine === 'python' ? pyodidePaths() : quickjsPaths();
    } catch (err) {
      throw asEngineFailure(err);
    }
    cached.set(engine, paths);
  }
  return paths;
}

function pyodidePaths(): EnginePaths {
  const dir = pkgDir('pyodide', resolveEngine('pyodide'));
  return { entry: dir, readable: [dir] };
}

function quickjsPaths(): EnginePaths {
  const entry = resolveEngine('quickjs-emscripten');
  const quickjsDir = pkgDir('quickjs-emscripten', entry);
  const inQuickjs = (name: string) => pkgDir(name, require.resolve(name, { paths: [quickjsDir] }));
  const required = ['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync', '@jitl/quickjs-ffi-types'].map(inQuickjs);
  const variants = ['@jitl/quickjs-wasmfile-release-asyncify', '@jitl/quickjs-wasmfile-debug-sync', '@jitl/quickjs-wasmfile-debug-asyncify']
    .flatMap((v) => { try { return [inQuickjs(v)]; } catch { return []; } });
  return { entry, readable: [...new Set([quickjsDir, ...required, ...variants])] };
}

/** A package's directory, found up from its entry file (packages whose `exports` hide package.json included). */
function pkgDir(name: string, entry: string): string {
  let dir = dirname(entry);
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the directory of ${name}`);
    dir = up;
  }
}
