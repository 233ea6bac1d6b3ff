import { z } from 'zod';
import { AgentInputSchema } from '../../../../core/agents/agent-options';
import { trajectoryInput } from '../../../../core/agents/path-book';
import { runSearch } from '../../../../core/agents/run-search';
import { SearchContext } from '../../../../core/agents/search-context';
import { SearchState } from '../../../../core/agents/search-state';
import { messageText } from '../../../../core/schemas/messages';
import type { ApprovalAsk } from '../../../../core/steering/approvals';
import { defineTool, type AnyToolDefinition } from '../../../../activities/tools/define-tool';
import { finalAnswer } from '../../../../examples/tools';
import { multiplicationPlan } from '../../../../model-server';
import { inProcessAgent, QUICKSTART, quickstartInput } from '../../../../bench/lib/in-process-agent';

const ANSWER = multiplicationPlan().answer;

/** A search in process whose steps a test can steer between (as the workflow's update handlers do). */
async function steerable(input = quickstartInput(), opts: { tools?: AnyToolDefinition[] } = {}) {
  const env = inProcessAgent({ tools: opts.tools });
  const options = AgentInputSchema.parse(input);
  const state = SearchState.create([{ role: 'user', content: QUICKSTART }], await env.port.describeTools(options.tools), 0);
  const ctx = new SearchContext(state, options, env.port);
  return { ...env, ctx, state };
}

test('a rewind prunes what grew from a node and re-expands it next, its feedback in the system prompt', async () => {
  const { ctx, state, client } = await steerable(quickstartInput({ algorithm: 'astar' }));
  let rewound: Awaited<ReturnType<SearchContext['rewind']>> | undefined;
  const outcome = await runSearch(ctx, {
    beforeStep: async () => {
      if (state.counters.steps === 2 && !rewound) rewound = await ctx.rewind({ nodeId: 1, feedback: 'Multiply exactly the numbers given.' });
      return 'continue';
    },
  });
  if (outcome === 'handover') throw new Error('unexpected handover');
  expect(rewound!.resumeFrom).toBe(1);
  expect(rewound!.abandoned.length).toBeGreaterThan(0);
  for (const id of rewound!.abandoned) expect(state.tree.node(id).abandoned).toBe(true);
  // The next expansion was n1's, and it saw the feedback; no later one was made below pruned nodes.
  const expansionsAfter = client.requests.filter((r) => JSON.stringify(r).includes('Multiply exactly the numbers given.'));
  expect(expansionsAfter.length).toBeGreaterThan(0);
  const system = messageText((expansionsAfter[0].messages as never[])[0]);
  expect(system).toContain('Feedback from a person on the steps so far (follow it):\n- Multiply exactly the numbers given.');
  expect(outcome.isSolution).toBe(true);
  expect(state.tree.pathToRoot(outcome.bestId).some((n) => n.abandoned)).toBe(false);
  // The pruned branch is kept for audit, and survives the handover JSON.
  const json = ctx.handoverJSON();
  expect(json.tree.nodes.filter((t) => t[9] === true).map((t) => t[0])).toEqual(rewound!.abandoned);
  expect(SearchState.fromJSON(JSON.parse(JSON.stringify(json))).tree.node(rewound!.abandoned[0]).abandoned).toBe(true);
});

test('a replacement answer is evaluated like a step, and a solution ends the search with it', async () => {
  // The custom checker scores a correct final answer 1 (the LLM judge would want the steps too).
  const { ctx, state, port } = await steerable(quickstartInput({ algorithm: 'mcts', evaluator: { name: 'multiplication-checker' } }));
  let result: Awaited<ReturnType<SearchContext['rewind']>> | undefined;
  const outcome = await runSearch(ctx, {
    beforeStep: async () => {
      if (state.counters.steps === 1) result = await ctx.rewind({ nodeId: 1, content: `The answer is ${ANSWER}` });
      return 'continue';
    },
  });
  if (outcome === 'handover') throw new Error('unexpected handover');
  expect(result!.replacementId).toBeDefined();
  expect(outcome).toMatchObject({ bestId: result!.replacementId, isSolution: true, stop: { kind: 'solved' } });
  // The replacement's message was never written by an activity: it rides inline until one carries it.
  const messages = await port.resolvePath(trajectoryInput(state.tree, outcome.bestId));
  expect(messages.map((m) => messageText(m))).toEqual([QUICKSTART, `The answer is ${ANSWER}`]);
});

test('refusals name what is wrong: unknown, abandoned, finished nodes and a replaced prompt', async () => {
  const { ctx, state } = await steerable(quickstartInput({ algorithm: 'greedy', model: 'multiplier?guess=1' }));
  await runSearch(ctx);
  const answer = [...state.tree.preorder()].find((n) => n.data.output)!;
  expect(ctx.rewindProblem({ nodeId: 99 })).toBe(`there is no node n99 (the tree has n0 to n${state.tree.nextId - 1})`);
  expect(ctx.rewindProblem({ nodeId: 0, content: 'x' })).toMatch(/^n0 is the prompt: only steps can be replaced/);
  expect(ctx.rewindProblem({ nodeId: answer.id })).toBe(
    `n${answer.id} is finished (an answer), so nothing expands from it: rewind its parent n${answer.parent} to get new steps there, or replace it with content`,
  );
  await ctx.rewind({ nodeId: 0 });
  expect(ctx.rewindProblem({ nodeId: answer.id })).toBe(`n${answer.id} is on an abandoned branch: choose a node of the live tree (grove tree)`);
  await expect(ctx.rewind({ nodeId: answer.id })).rejects.toThrow('is on an abandoned branch');
});

test('a stop between steps ends the search with the best answer so far', async () => {
  const { ctx, state } = await steerable(quickstartInput({ algorithm: 'beam' }));
  const outcome = await runSearch(ctx, {
    beforeStep: async () => {
      if (state.counters.steps === 1) state.stop = { kind: 'stopped', message: 'stopped by ana' };
      return 'continue';
    },
  });
  if (outcome === 'handover') throw new Error('unexpected handover');
  expect(state.counters.steps).toBe(1);
  expect(outcome.stop).toEqual({ kind: 'stopped', message: 'stopped by ana' });
  expect(outcome.bestId).toBeGreaterThan(0);
});

test('calls to a tool requiring approval wait for a decision: refused ones are answered without running', async () => {
  let runs = 0;
  const guardedMultiply = defineTool({
    name: 'multiply',
    description: 'Multiplies two numbers and returns the result number.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    strict: true,
    requiresApproval: true,
    run: ({ a, b }) => {
      runs++;
      return a * b;
    },
  });
  const { ctx, state, port } = await steerable(quickstartInput({ algorithm: 'greedy', bFactor: 1 }), { tools: [guardedMultiply, finalAnswer] });
  const asked: ApprovalAsk[] = [];
  port.approve = async (ask) => {
    asked.push(ask);
    return asked.length === 1 ? { decision: 'reject', by: 'ana', at: 1, reason: 'check the numbers' } : { decision: 'approve', by: 'ana', at: 2 };
  };
  const outcome = await runSearch(ctx);
  if (outcome === 'handover') throw new Error('unexpected handover');
  expect(asked[0]).toMatchObject({ where: 'n0 candidate 1/1', call: { function: { name: 'multiply' } } });
  expect(runs).toBe(asked.length - 1);
  expect(state.counters.toolRuns).toBe(runs + 1); // and final_answer, which needs no approval
  const messages = await port.resolvePath(trajectoryInput(state.tree, outcome.bestId));
  expect(messages[2]).toMatchObject({ role: 'tool', content: 'Error: multiply was not run: ana rejected the call (check the numbers).' });
  expect(outcome.isSolution).toBe(true);
});
