import { EngineFailure } from '../core/failures';

/**
 * grove's heavy engines, each needed by one feature only: optional peer dependencies, so a
 * project installs the ones its features use (the embedded model alone is ~700 MB of llama.cpp
 * binaries). The versions are the ones grove is tested with (package.json's devDependencies;
 * test/unit/runtime/optional-engine.test.ts keeps the two in step).
 */
export const OPTIONAL_ENGINES = {
  pg: { version: '8.23.1', feature: 'the PostgreSQL message store' },
  pyodide: { version: '314.0.7', feature: 'the Python sandbox' },
  'quickjs-emscripten': { version: '0.32.0', feature: 'the JavaScript and TypeScript sandbox' },
  'node-llama-cpp': { version: '3.21.1', feature: 'the embedded local model' },
  '@modelcontextprotocol/sdk': { version: '1.32.2', feature: 'serving MCP tools' },
  '@opentelemetry/exporter-trace-otlp-proto': { version: '0.57.2', feature: 'exporting traces over OTLP http/protobuf' },
  '@opentelemetry/exporter-metrics-otlp-proto': { version: '0.57.2', feature: 'exporting metrics over OTLP http/protobuf' },
  '@opentelemetry/exporter-trace-otlp-http': { version: '0.57.2', feature: 'exporting traces over OTLP http/json' },
  '@opentelemetry/exporter-metrics-otlp-http': { version: '0.57.2', feature: 'exporting metrics over OTLP http/json' },
} as const;

export type OptionalEngine = keyof typeof OPTIONAL_ENGINES;

/**
 * A feature was used whose engine is not installed. Its message is one line that names the
 * package and the command that adds it; its name is the failure type `GroveEngineMissing`.
 */
export class GroveEngineMissing extends Error {
  override name = EngineFailure.Missing;
  constructor(readonly engine: OptionalEngine, hint?: string) {
    const { version, feature } = OPTIONAL_ENGINES[engine];
    super(`${feature} needs the package "${engine}" — npm install ${engine}@${version}${hint ? ` (${hint})` : ''}`);
  }
}

/**
 * The entry file of an engine, resolved from where grove is installed (its own dependencies, then
 * the project's): for engines a child process loads. Throws `GroveEngineMissing` when it is not
 * installed (a package of its own that is missing is another error, passed on).
 *
 * @example
 * const entry = resolveEngine('quickjs-emscripten'); // '/app/node_modules/quickjs-emscripten/dist/index.js'
 */
export function resolveEngine(engine: OptionalEngine, hint?: string): string {
  try {
    return require.resolve(engine);
  } catch (err) {
    throw engineMissing(err, engine, hint);
  }
}

/**
 * An engine's CommonJS module, loaded at the point of use (never when grove's entry points load).
 *
 * @example
 * const { Pool } = requireEngine<typeof import('pg')>('pg');
 */
export function requireEngine<T>(engine: OptionalEngine, hint?: string): T {
  try {
    return require(engine) as T;
  } catch (err) {
    throw engineMissing(err, engine, hint);
  }
}

/** `import()` that TypeScript's CommonJS output keeps as a real dynamic import (for ESM-only engines). */
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/**
 * An ESM-only engine's module (node-llama-cpp), imported at the point of use.
 *
 * @example
 * const { getLlama } = await importEngine<typeof import('node-llama-cpp')>('node-llama-cpp');
 */
export async function importEngine<T>(engine: OptionalEngine, hint?: string): Promise<T> {
  try {
    return (await importEsm(engine)) as T;
  } catch (err) {
    throw engineMissing(err, engine, hint);
  }
}

/**
 * A failed load as `GroveEngineMissing` when the engine itself (or a file of it: `pkg/sub.js`) is
 * absent; anything else — a broken install, a missing dependency of the engine — as it is.
 *
 * @example
 * try { return require('@modelcontextprotocol/sdk/client/index.js'); } catch (err) { throw engineMissing(err, '@modelcontextprotocol/sdk'); }
 */
export function engineMissing(err: unknown, engine: OptionalEngine, hint?: string): unknown {
  const { code, message } = (err ?? {}) as { code?: string; message?: string };
  const notFound = code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
  const itself = new RegExp(`(module|package) '${engine.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/[^']*)?'`).test(message ?? '');
  return notFound && itself ? new GroveEngineMissing(engine, hint) : err;
}
