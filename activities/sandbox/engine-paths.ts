import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface EnginePaths {
  /** The directory of the `pyodide` package (pyodide.js, the WASM core, the standard library). */
  pyodide: string;
  /** The entry file of `quickjs-emscripten`. */
  quickjs: string;
  /** Every directory a child may read: the engine packages and nothing else. */
  readable: string[];
}

let cached: EnginePaths | undefined;

/**
 * Where the sandbox engines are installed, resolved from this package's own dependencies (never
 * a CDN): the child process gets read access to these directories only.
 */
export function enginePaths(): EnginePaths {
  if (cached) return cached;
  const quickjsDir = pkgDir('quickjs-emscripten');
  const coreDir = pkgDir('quickjs-emscripten-core', quickjsDir);
  const variants = ['@jitl/quickjs-wasmfile-release-sync', '@jitl/quickjs-ffi-types'].map((v) => pkgDir(v, quickjsDir));
  const variantDeps = ['@jitl/quickjs-wasmfile-release-sync', '@jitl/quickjs-wasmfile-release-asyncify', '@jitl/quickjs-wasmfile-debug-sync', '@jitl/quickjs-wasmfile-debug-asyncify']
    .flatMap((v) => { try { return [pkgDir(v, quickjsDir)]; } catch { return []; } });
  const pyodide = pkgDir('pyodide');
  cached = {
    pyodide,
    quickjs: require.resolve('quickjs-emscripten'),
    readable: [...new Set([quickjsDir, coreDir, ...variants, ...variantDeps, pyodide])],
  };
  return cached;
}

/** A package's directory, found from its entry file (packages whose `exports` hide package.json included). */
function pkgDir(name: string, from?: string): string {
  let dir = dirname(require.resolve(name, from ? { paths: [from] } : undefined));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the directory of ${name}`);
    dir = up;
  }
}
