import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer, type DevServer } from '../../client/temporal-server/dev-server';
import { freePort } from '../../client/temporal-server/ports';
import { writeWorkflowBundle } from '../../workers/workflow-bundle';

/**
 * ONE Temporal dev server and ONE workflow bundle per test run. Test files find them through
 * environment variables (inherited by jest's worker processes); each test uses its own task
 * queue. With TEMPORAL_ADDRESS set, the tests run against that server instead.
 */
export default async function globalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'grove-test-'));
  process.env.GROVE_TEST_DIR = dir;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const [server, bundle] = await Promise.all([
    process.env.TEMPORAL_ADDRESS
      ? Promise.resolve(undefined)
      : freePort().then((port) => startDevServer({ port, uiPort: false, log })),
    writeWorkflowBundle(join(dir, 'workflow-bundle.js'), { workflowsPath: join(__dirname, 'test-workflows.ts') }),
  ]);
  (globalThis as { __groveServer?: DevServer }).__groveServer = server;
  process.env.GROVE_TEST_TEMPORAL_ADDRESS = server?.address ?? process.env.TEMPORAL_ADDRESS;
  process.env.GROVE_TEST_WORKFLOW_BUNDLE = bundle.codePath;
}
