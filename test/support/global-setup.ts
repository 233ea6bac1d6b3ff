import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalPostgres, type LocalPostgres } from '../../client/local/postgres-server';
import { startDevServer, type DevServer } from '../../client/temporal-server/dev-server';
import { freePort } from '../../client/temporal-server/ports';
import { writeWorkflowBundle } from '../../workers/workflow-bundle';

/**
 * ONE Temporal dev server, ONE PostgreSQL server (the networked message store) and ONE workflow
 * bundle per test run. Test files find them through environment variables (inherited by jest's
 * worker processes); each test uses its own task queue. With TEMPORAL_ADDRESS set, the tests run
 * against that server instead; with GROVE_TEST_STORE_URL set, against that PostgreSQL.
 */
export default async function globalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'grove-test-'));
  process.env.GROVE_TEST_DIR = dir;
  chmodSync(dir, 0o755); // as root, PostgreSQL runs as the postgres user and must reach its folder inside
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const [, server, bundle, postgres] = await Promise.all([
    // The compiled package (dist/) is what `grove` and the packed package run: keep it current (incremental, ~3 s).
    build(),
    process.env.TEMPORAL_ADDRESS
      ? Promise.resolve(undefined)
      : freePort().then((port) => startDevServer({ port, uiPort: false, log })),
    writeWorkflowBundle(join(dir, 'workflow-bundle.js'), { workflowsPath: join(__dirname, 'test-workflows.ts') }),
    process.env.GROVE_TEST_STORE_URL
      ? Promise.resolve(undefined)
      : freePort().then((port) => startLocalPostgres({ dir: join(dir, 'postgres'), port, log })),
  ]);
  (globalThis as { __groveServer?: DevServer }).__groveServer = server;
  (globalThis as { __grovePostgres?: LocalPostgres }).__grovePostgres = postgres;
  process.env.GROVE_TEST_STORE_URL ??= postgres?.url;
  process.env.GROVE_TEST_TEMPORAL_ADDRESS = server?.address ?? process.env.TEMPORAL_ADDRESS;
  process.env.GROVE_TEST_WORKFLOW_BUNDLE = bundle.codePath;
}

function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['run', 'build', '--silent'], { cwd: join(__dirname, '..', '..') }, (err, _stdout, stderr) =>
      err ? reject(new Error(`npm run build failed: ${stderr || err.message}`)) : resolve(),
    );
  });
}
