import { randomUUID } from 'node:crypto';
import { msToTs } from '@temporalio/common/lib/time';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeFailure } from '../../client/cli/describe-failure';
import { BAD_INPUTS } from '../fixtures/bad-inputs';
import { integrationSuite } from '../support/integration-suite';
import { rejection } from '../support/rejection';
import { runCli } from '../support/run-cli';
import { groveClient } from '../support/temporal-env';

/**
 * The bad-input corpus through every door: the typed client, a raw Temporal start by name (as a
 * service in another language would), and the CLI. Nothing may hang: each raw run ends (or is
 * refused) and names the field; valid-but-odd inputs complete.
 */
const suite = integrationSuite('corpus');
const bad = BAD_INPUTS.filter((c) => c.names !== undefined);
const odd = BAD_INPUTS.filter((c) => c.names === undefined);

test('the corpus has what it claims', () => {
  expect(bad.length).toBeGreaterThanOrEqual(50);
  expect(bad.length + bad.filter((c) => !c.clientOnly).length).toBeGreaterThanOrEqual(70);
});

test('typed client: every bad input is rejected before a run exists, naming the field; odd-but-valid ones complete', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    for (const c of bad) {
      const workflowId = `${taskQueue}-${bad.indexOf(c)}`;
      const err = (await rejection(grove.start(c.kind, c.input as never, { workflowId }))) as Error;
      expect([c.name, err.name, err.message.includes(c.names!)]).toEqual([c.name, 'GroveInvalidInput', true]);
      expect(err.message.split('\n')).toHaveLength(1);
    }
    let started = 0;
    for await (const _run of suite.env.client.workflow.list({ query: `TaskQueue = "${taskQueue}"` })) started++;
    expect(started).toBe(0);
    for (const c of odd) {
      const result = (await grove.run(c.kind, c.input as never)) as { workflowId: string };
      expect([c.name, typeof result.workflowId]).toEqual([c.name, 'string']);
    }
  });
}, 120_000);

test('raw start by name: every run with a bad input fails at once with GroveInvalidInput naming the field; none hangs', async () => {
  await suite.withWorker(async (taskQueue) => {
    const outcomes = await Promise.all(
      bad
        .filter((c) => !c.clientOnly)
        .map(async (c, i) => {
          const workflowId = `${taskQueue}-raw-${i}`;
          const handle = c.json
            ? await startWithJsonText(c.kind, c.json, taskQueue, workflowId)
            : await suite.env.client.workflow.start(c.kind, { taskQueue, workflowId, args: [c.input], workflowExecutionTimeout: 60_000 });
          const failure = await rejection(handle.result());
          return { name: c.name, names: c.names!, message: describeFailure(failure), type: rootType(failure) };
        }),
    );
    for (const o of outcomes) expect([o.name, o.type, o.message.includes(o.names)]).toEqual([o.name, 'GroveInvalidInput', true]);
    expect(suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${taskQueue}-raw-`))).toEqual([]);
  });
}, 120_000);

test('CLI: bad inputs exit 2 with one line naming the field', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grove-corpus-'));
  try {
    const deep = bad.filter((x) => x.json);
    expect(deep.length).toBeGreaterThan(0);
    for (const c of [...bad.filter((x) => !x.clientOnly).slice(0, 40).filter((_, i) => i % 4 === 0), ...deep]) {
      const file = join(dir, 'input.json');
      writeFileSync(file, c.json ?? JSON.stringify(c.input));
      const run = await runCli(['run', c.kind, '--input', file], { TEMPORAL_ADDRESS: suite.env.address });
      expect([c.name, run.code, run.stderr.trim().split('\n').length, run.stderr.includes(c.names!)]).toEqual([c.name, 2, 1, true]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

/**
 * Starts a run whose input is given as JSON text, as a client in another language does: V8's
 * `JSON.stringify` cannot write JSON nested thousands of levels deep, so the TypeScript client
 * cannot send it, but a Go or Java client can.
 */
async function startWithJsonText(kind: string, json: string, taskQueue: string, workflowId: string) {
  const client = suite.env.client;
  await client.workflowService.startWorkflowExecution({
    namespace: client.options.namespace,
    workflowId,
    workflowType: { name: kind },
    taskQueue: { name: taskQueue },
    input: { payloads: [{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from(json) }] },
    workflowExecutionTimeout: msToTs(60_000),
    requestId: randomUUID(),
    identity: 'another-language',
  });
  return client.workflow.getHandle(workflowId);
}

function rootType(err: unknown): string | undefined {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const type = (e as { type?: string }).type;
    if (type) return type;
  }
  return undefined;
}
