import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineFailure } from '../../../core/failures';
import { engineMissing, GroveEngineMissing, OPTIONAL_ENGINES, requireEngine, resolveEngine, type OptionalEngine } from '../../../runtime/optional-engine';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const engines = Object.keys(OPTIONAL_ENGINES) as OptionalEngine[];

test('every engine is an optional peer, not a dependency, and its install command names the version the repository tests (its devDependency)', () => {
  for (const engine of engines) {
    expect(manifest.dependencies[engine]).toBeUndefined();
    expect(manifest.peerDependenciesMeta[engine]).toEqual({ optional: true });
    expect(manifest.devDependencies[engine]).toBe(OPTIONAL_ENGINES[engine].version);
    const peer = manifest.peerDependencies[engine];
    expect([OPTIONAL_ENGINES[engine].version, `^${OPTIONAL_ENGINES[engine].version}`]).toContain(peer);
  }
  // The optional peers are exactly the engines: a heavy package added later is listed here too.
  expect(Object.keys(manifest.peerDependenciesMeta).sort()).toEqual([...engines].sort());
  // zod is a peer that npm installs: a project's aiExtract schemas and grove's are one zod.
  expect(manifest.peerDependencies.zod).toBe(manifest.devDependencies.zod);
  expect(manifest.dependencies.zod).toBeUndefined();
});

test('a missing engine is one line naming the feature, the package and the command that installs it, with the stable failure type', () => {
  const err = new GroveEngineMissing('pyodide');
  expect(err.message).toBe('the Python sandbox needs the package "pyodide" — npm install pyodide@314.0.7');
  expect(err.name).toBe(EngineFailure.Missing);
  expect(new GroveEngineMissing('node-llama-cpp', 'or set OPENAI_BASE_URL').message).toBe(
    'the embedded local model needs the package "node-llama-cpp" — npm install node-llama-cpp@3.21.1 (or set OPENAI_BASE_URL)',
  );
});

/** The absent case runs where the engines are absent: a packed consumer (test/integration/package.test.ts); importEngine in real-models.test.ts (jest cannot import ESM). */
test('installed engines load at the point of use', () => {
  expect(typeof requireEngine<typeof import('pg')>('pg').Pool).toBe('function');
  expect(resolveEngine('quickjs-emscripten')).toBe(require.resolve('quickjs-emscripten'));
});

test("only the engine's own absence is GroveEngineMissing: a missing dependency of the engine is a broken install, passed on as it is", () => {
  const notFound = (code: string, message: string) => Object.assign(new Error(message), { code });
  const cjs = notFound('MODULE_NOT_FOUND', "Cannot find module '@modelcontextprotocol/sdk/client/index.js'\nRequire stack:\n- /app/x.js");
  expect(engineMissing(cjs, '@modelcontextprotocol/sdk')).toBeInstanceOf(GroveEngineMissing);
  const esm = notFound('ERR_MODULE_NOT_FOUND', "Cannot find package 'node-llama-cpp' imported from /app/node_modules/grove-agents/dist/runtime/optional-engine.js");
  expect(engineMissing(esm, 'node-llama-cpp')).toBeInstanceOf(GroveEngineMissing);
  const nested = notFound('MODULE_NOT_FOUND', "Cannot find module 'pg-types'\nRequire stack:\n- /app/node_modules/pg/lib/index.js");
  expect(engineMissing(nested, 'pg')).toBe(nested);
  const broken = new SyntaxError('Unexpected token');
  expect(engineMissing(broken, 'pg')).toBe(broken);
});

test('the docs give each engine its exact install command', () => {
  const docs = ['README.md', 'docs/api/README.md'].map((f) => readFileSync(join(__dirname, '../../..', f), 'utf8'));
  for (const engine of engines) {
    const command = new RegExp(`npm install [^\`\n]*${`${engine}@${OPTIONAL_ENGINES[engine].version}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
    for (const doc of docs) expect(doc).toMatch(command);
  }
});
