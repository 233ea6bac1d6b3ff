import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/run-cli';

const run = promisify(execFile);

/**
 * grove as other people install it: `npm pack`, installed into a fresh project, used from plain
 * Node — a worker with the plugin, a tool of the project's own and a workflow of its own that uses
 * grove's workflow API — against the test run's dev server. (The package was built by globalSetup.)
 */
let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'grove-consumer-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the packed package installs into a fresh project and runs there without TypeScript tooling', async () => {
  const { stdout: packed } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT });
  const [info] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[];
  const files = info.files.map((f) => f.path);
  expect(files).toContain('dist/workflow-bundle.js');
  expect(files).toContain('dist/workflow-bundle-traced.js'); // for workers that export telemetry
  expect(files).toContain('dist/workflows/api/index.d.ts');
  expect(files.filter((f) => /^(test|bench|scripts)\/|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);

  const project = join(dir, 'project');
  cpSync(join(ROOT, 'test', 'fixtures', 'consumer'), project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, info.filename), 'zod@4'], { cwd: project, timeout: 240_000 });
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
}, 300_000);
