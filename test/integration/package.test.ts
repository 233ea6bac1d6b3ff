import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { GroveEngineMissing, OPTIONAL_ENGINES, type OptionalEngine } from '../../runtime/optional-engine';
import { extractSnippets, snippetFiles } from '../support/doc-snippets';
import { ROOT } from '../support/run-cli';

const run = promisify(execFile);

/**
 * grove as other people install it: `npm pack`, installed into a fresh project with zod and the
 * Temporal peers only (none of the optional engines), used from plain Node — a worker with the
 * plugin, a tool of the project's own and a workflow of its own that uses grove's workflow API —
 * against the test run's dev server. (The package was built by globalSetup.)
 */
let dir: string;
let project: string;
let info: { filename: string; files: { path: string }[] };
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'grove-consumer-'));
  const { stdout: packed } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT });
  [info] = JSON.parse(packed) as (typeof info)[];
  project = join(dir, 'project');
  cpSync(join(ROOT, 'test', 'fixtures', 'consumer'), project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  // What the README's "Install" says a project adds: the tarball and zod 4 (npm installs the @temporalio/* peers).
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, info.filename), 'zod@4'], { cwd: project, timeout: 240_000 });
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the packed package installs into a fresh project and runs there without TypeScript tooling', async () => {
  const files = info.files.map((f) => f.path);
  expect(files).toContain('dist/workflow-bundle.js');
  expect(files).toContain('dist/workflow-bundle-traced.js'); // for workers that export telemetry
  expect(files).toContain('dist/workflows/api/index.d.ts');
  expect(files.filter((f) => /^(test|bench|scripts)\/|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);

  expect(readdirSync(join(project, 'node_modules'))).not.toContain('tsx');

  const { stdout: version } = await run(join(project, 'node_modules', '.bin', 'grove'), ['--version'], { cwd: project });
  expect(version.trim()).toBe(require(join(ROOT, 'package.json')).version);

  const { stdout } = await run(process.execPath, ['main.js'], {
    cwd: project,
    env: { ...process.env, TEMPORAL_ADDRESS: process.env.GROVE_TEST_TEMPORAL_ADDRESS, NODE_OPTIONS: '' },
    timeout: 120_000,
  });
  const results = JSON.parse(stdout.trim().split('\n').pop()!);
  expect(results.own).toEqual({ output: 'Echo: Repeat after me: grove', calls: 1 });
  expect(results.agent.isSolution).toBe(true);
  expect(results.multiplied).toBeGreaterThanOrEqual(4); // the project's own tool ran, as an activity of its worker
  // The sandbox's engine is not installed: the activity fails once, not retried, and says what to add.
  expect(results.python).toEqual({ type: 'GroveEngineMissing', message: new GroveEngineMissing('pyodide').message, retryState: 'NON_RETRYABLE_FAILURE' });
}, 300_000);

/** The light install: the heavy engines are optional peers, so npm leaves them out. */
test('the project gets none of the optional engines, and its node_modules stay under 350 MB', async () => {
  const engines = Object.keys(OPTIONAL_ENGINES);
  expect(engines.filter((name) => existsSync(join(project, 'node_modules', name)))).toEqual([]);
  expect(existsSync(join(project, 'node_modules', '@node-llama-cpp'))).toBe(false); // llama.cpp's binaries for every platform
  expect(existsSync(join(project, 'node_modules', 'zod'))).toBe(true); // a peer npm installs: one zod for the project and grove
  const { stdout } = await run('du', ['-sm', join(project, 'node_modules')]);
  const mb = Number(stdout.split('\t')[0]);
  process.stderr.write(`grove consumer install (grove-agents + zod + the Temporal peers, no optional engines): node_modules ${mb} MB\n`);
  expect(mb).toBeLessThanOrEqual(350);
});

test('every entry point loads without the optional engines, and each feature that needs one says in one line what to install', async () => {
  const entries = ['grove-agents', 'grove-agents/client', 'grove-agents/workflow', 'grove-agents/workflows', 'grove-agents/worker', 'grove-agents/activities', 'grove-agents/core', 'grove-agents/model-server'];
  const { stdout } = await run(process.execPath, ['-e', `for (const e of ${JSON.stringify(entries)}) require(e); console.log('loaded')`], { cwd: project, env: { ...process.env, NODE_OPTIONS: '' } });
  expect(stdout.trim()).toBe('loaded');

  writeFileSync(join(project, 'hello.py'), 'print(1)\n');
  writeFileSync(join(project, 'hello.ts'), 'console.log(1)\n');
  const grove = join(project, 'node_modules', '.bin', 'grove');
  const failure = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    run(grove, args, { cwd: project, env: { ...process.env, NODE_OPTIONS: '', GROVE_HOME: join(dir, 'home'), ...env } }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
  const line = (engine: OptionalEngine) => `grove: ${new GroveEngineMissing(engine).message}\n`;
  expect(await failure(['exec', 'hello.py'])).toEqual({ code: 1, stderr: line('pyodide') });
  expect(await failure(['exec', 'hello.ts'])).toEqual({ code: 1, stderr: line('quickjs-emscripten') });
  expect(await failure(['store', 'stats'], { GROVE_STORE_URL: 'postgres://grove:secret@127.0.0.1:1/grove' })).toEqual({ code: 1, stderr: line('pg') });
  expect(await failure(['model-server', '--local'])).toEqual({ code: 1, stderr: line('node-llama-cpp') }); // before the model file is fetched
  expect(await failure(['tools', '--mcp', 'idle=node -e 0'])).toEqual({ code: 1, stderr: line('@modelcontextprotocol/sdk') });
  const telemetry = await run(process.execPath, ['-e', `try { require('grove-agents/worker').groveTelemetry() } catch (err) { console.log(err.name + ': ' + err.message) }`], {
    cwd: project,
    env: { ...process.env, NODE_OPTIONS: '', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' },
  });
  expect(telemetry.stdout).toBe(`GroveEngineMissing: ${new GroveEngineMissing('@opentelemetry/exporter-trace-otlp-proto').message}\n`);
  expect(line('pyodide')).toBe(`grove: the Python sandbox needs the package "pyodide" — npm install pyodide@${OPTIONAL_ENGINES.pyodide.version}\n`);
}, 120_000);

/**
 * The published declarations as a TypeScript consumer compiles them, with `skipLibCheck: false`
 * and none of grove's dev dependencies (no `@types/pg`): every entry point, and every ts/js
 * snippet of README.md and docs/api (test/unit/docs/snippets.test.ts checks them against the
 * sources; here against what npm installed). Errors in other packages' declarations (the
 * Temporal SDK's, under whatever `@types/node` npm picked) are theirs, not grove's, and are left out.
 */
test('a TypeScript consumer compiles against the packed declarations with skipLibCheck false and without @types/pg', async () => {
  expect(existsSync(join(project, 'node_modules', '@types', 'pg'))).toBe(false);
  const entries = ['', '/client', '/workflow', '/workflows', '/worker', '/activities', '/core', '/model-server'];
  writeFileSync(
    join(project, 'entries.mts'),
    entries.map((e, i) => `import * as entry${i} from 'grove-agents${e}';`).join('\n') + `\nconsole.log(${entries.map((_, i) => `entry${i}`).join(', ')});\n`,
  );
  const docs = ['README.md', ...readdirSync(join(ROOT, 'docs', 'api')).filter((f) => f.endsWith('.md')).map((f) => `docs/api/${f}`)];
  const { files } = snippetFiles(project, docs.flatMap((f) => extractSnippets(ROOT, f)));
  for (const f of files) writeFileSync(f.name, f.code);
  const names = ['entries.mts', ...files.map((f) => relative(project, f.name))];
  const compilerOptions = { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: false, allowJs: true, checkJs: true, noEmit: true, types: ['node'] };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: names }));
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const output = await run(process.execPath, [tsc, '-p', project], { cwd: project }).then(
    () => '',
    (err: { stdout?: string }) => err.stdout ?? String(err),
  );
  const errors = output.split('\n').filter((line) => /^\S.*\(\d+,\d+\): error /.test(line));
  const ours = errors.filter((line) => !line.startsWith('node_modules/') || line.startsWith('node_modules/grove-agents/'));
  const where = (line: string) => {
    const [, name, at] = /^(.*?)\((\d+),\d+\)/.exec(line)!;
    const f = files.find((file) => relative(project, file.name) === name);
    return f ? `${f.origin[Number(at) - 1].file}:${f.origin[Number(at) - 1].line}: ${line}` : line;
  };
  expect(ours.map(where)).toEqual([]);
  expect(output === '' || errors.length > 0).toBe(true); // tsc failed only with errors it printed
}, 120_000);
