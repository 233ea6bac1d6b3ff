import { readFileSync } from 'node:fs';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { RUN_KINDS, type RunInput, type RunKindName } from '../../client/run-kinds';
import { RUN_KIND_NAMES } from '../../core/runs/run-kind-names';
import { GroveKind, GroveStatus } from '../../workflows/search-attributes';
import { RunSource } from '../../ui/server/run-source';
import { quickstartInput } from '../../bench/lib/in-process-agent';
import { colorGameInput } from '../support/inputs';
import { integrationSuite } from '../support/integration-suite';
import { rejection } from '../support/rejection';
import { runCli } from '../support/run-cli';
import { groveClient, uniqueTaskQueue } from '../support/temporal-env';

/**
 * Every kind of run goes by one name everywhere: the client's pre-check applies the operator
 * policy to it, `grove list --kind <name>` finds it, the viewer draws its tree, and `grove
 * result` prints its answer — walked here for every name in RUN_KIND_NAMES, with real runs.
 */
const suite = integrationSuite('kinds');

/** A small run of each kind, an input over one of the policy's ceilings, and what its answer must print. */
const KINDS: Record<RunKindName, { input: unknown; tooMuch: unknown; field: string; prints: RegExp; exit?: number }> = {
  generate: { input: { prompt: 'Say hi!', model: 'echo' }, tooMuch: { prompt: 'x', apiKwargs: { n: 8 } }, field: 'apiKwargs.n', prints: /^completed: answered; nothing checked the answer — 1 model call, \d+ tokens\n\nanswer:\nEcho: Say hi!\n/ },
  airetry: { input: colorGameInput(), tooMuch: colorGameInput({ config: { maxCalls: 50 } }), field: 'config.maxCalls', prints: /^completed: all checks passed \(by deterministic checks\) — 5 model calls \(10 samples\), [\d,]+ tokens; 4 retries\n\nanswer:\nyellow\n/ },
  agent: { input: quickstartInput({ model: 'multiplier', seed: 1 }), tooMuch: quickstartInput({ budget: { maxCalls: 50 } }), field: 'budget.maxCalls', prints: /^completed: judged solved by multiplier-judge; not verified — score 1\.00; \d+ model calls, \d+ tool runs, [\d,]+ tokens; \d+ nodes\n\nanswer:\n68078726504747240000\n/, exit: 4 },
  'code-fixer': {
    input: JSON.parse(readFileSync('examples/inputs/code-fixer.json', 'utf8')),
    tooMuch: { prompt: 'x', language: 'python', numRounds: 30 },
    field: 'numRounds',
    prints: /^completed: fixed: 3\/3 tests passed in the sandbox \(2 attempts, 1 feedback round\) — 2 model calls, [\d,]+ tokens\n\ncode:\ndef is_palindrome\(s\):/,
  },
  session: { input: { model: 'concierge' }, tooMuch: { model: 'concierge', maxSteps: 30 }, field: 'maxSteps', prints: /^closed by ana: 1 turn — 1 model call, 0 tool runs, [\d,]+ tokens; 0 rewinds\n\n\[system\] .+\n\[user\] What is the capital of France\?\n\[assistant\] .+\n/ },
};

test('every kind goes by one name: the policy, grove list, the viewer and grove result all know it', async () => {
  expect(Object.keys(KINDS).sort()).toEqual([...RUN_KIND_NAMES].sort());
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const strict = groveClient(suite.env, taskQueue, { maxCalls: 20, maxFanOut: 4 });
    const ids = {} as Record<RunKindName, string>;
    for (const kind of RUN_KIND_NAMES) {
      // The client refuses an input over the operator's ceilings before any run starts, naming the field.
      const refused = await rejection(Promise.resolve().then(() => strict.checkInput(kind, KINDS[kind].tooMuch as RunInput<typeof kind>)));
      expect((refused as Error).message).toMatch(new RegExp(`^invalid ${kind} input: ${KINDS[kind].field.replace('.', '\\.')}: \\d+ is above the operator limit`));
      if (kind === 'session') {
        const chat = grove.session(`${taskQueue}-session`, { input: KINDS.session.input as never, by: 'ana' });
        await chat.send('What is the capital of France?');
        await chat.close();
        ids.session = `${taskQueue}-session`;
      } else {
        ids[kind] = (await grove.run(kind, KINDS[kind].input as never, { workflowId: `${taskQueue}-${kind}` })).workflowId;
      }
    }

    const env = { TEMPORAL_ADDRESS: suite.env.address, GROVE_TASK_QUEUE: taskQueue };
    const viewer = new RunSource({ client: suite.env.client, store: new MemoryMessageStore() });
    for (const kind of RUN_KIND_NAMES) {
      const id = ids[kind];
      const groveKind = kind === 'agent' ? 'agent:mcts' : kind;
      // grove list --kind finds it, under its one name.
      const listed = await runCli(['list', '--kind', kind, '--query', `TaskQueue = "${taskQueue}"`, '--json'], env);
      expect(JSON.parse(listed.stdout).map((r: { workflowId: string; kind: string }) => [r.workflowId, r.kind])).toEqual([[id, groveKind]]);
      // The viewer lists it under that name and draws its tree.
      expect((await viewer.list({ kind })).map((r) => [r.workflowId, r.kind])).toContainEqual([id, groveKind]);
      const view = await viewer.view(id);
      expect(view.note).toBeUndefined();
      expect(view.tree!.nodes.length).toBeGreaterThanOrEqual(2);
      expect(view.tree!.bestPath.length).toBeGreaterThanOrEqual(2);
      // grove result prints its answer.
      const result = await runCli(['result', id], env);
      expect({ kind, code: result.code, stdout: result.stdout }).toMatchObject({ kind, code: KINDS[kind].exit ?? 0, stdout: expect.stringMatching(KINDS[kind].prints) });
    }
    // A run that started before one name per kind carries GroveKind `codeFixer`: it is listed (as code-fixer) all the same.
    const former = await suite.env.client.workflow.start(RUN_KINDS['code-fixer'].workflowType, {
      taskQueue: uniqueTaskQueue('nobody-serves'),
      workflowId: `${taskQueue}-former`,
      args: [KINDS['code-fixer'].input],
      typedSearchAttributes: [
        { key: GroveKind, value: 'codeFixer' },
        { key: GroveStatus, value: 'running' },
      ],
    });
    try {
      const listed = await runCli(['list', '--kind', 'code-fixer', '--query', `WorkflowId = "${former.workflowId}"`, '--json'], env);
      expect(JSON.parse(listed.stdout).map((r: { workflowId: string; kind: string }) => [r.workflowId, r.kind])).toEqual([[former.workflowId, 'code-fixer']]);
      expect((await viewer.list({ kind: 'code-fixer' })).map((r) => [r.workflowId, r.kind])).toContainEqual([former.workflowId, 'code-fixer']);
    } finally {
      await former.terminate('test over');
    }
  });
}, 120_000);

test('a code-fixer run writes its one name; the operator policy applies to it in the workflow too', async () => {
  const input = { prompt: 'x', language: 'python' as const, numRounds: 7 };
  await suite.withWorker(async (tq) => {
    // A client without the worker's tighter policy lets it through; the workflow holds it to the worker's.
    const handle = await groveClient(suite.env, tq).start('code-fixer', input);
    await expect(handle.result()).rejects.toMatchObject({ cause: { message: 'invalid code-fixer input: numRounds: 7 is above the operator limit of 5 (maxCalls)' } });
    const description = await handle.describe();
    expect([description.typedSearchAttributes.get(GroveKind), description.typedSearchAttributes.get(GroveStatus)]).toEqual(['code-fixer', 'failed']);
  }, undefined, { maxCalls: 5 });
});
