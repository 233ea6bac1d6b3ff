import { selectCandidates } from '../../../../core/agents/candidates';
import { bestNode } from '../../../../core/agents/best-node';
import { isOutputMessage, isSolution, isTerminal, type TerminationRules } from '../../../../core/agents/predicates';
import { createAgentTree } from '../../../../core/agents/path-book';
import type { ToolSpec } from '../../../../core/schemas/agent-activities';
import { assistantMessage, userMessage, type AssistantMessage } from '../../../../core/schemas/messages';

const call = (name: string, args: string, id = `c-${name}-${args}`): AssistantMessage =>
  assistantMessage(null, { tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] });

test('candidates: texts first (merged), then tool calls by frequency, ties first-seen, cut to bFactor', () => {
  const a1 = call('multiply', '{"a":1,"b":2}', 'x1');
  const a2 = call('multiply', '{"b":2, "a":1}', 'x2'); // same call, keys in another order
  const b = call('multiply', '{"a":3,"b":4}');
  const c = call('add', '{"a":1}');
  const t1 = assistantMessage('The answer is 2');
  const t2 = assistantMessage('The answer is 2');
  const picked = selectCandidates([b, a1, c, t1, a2, t2], 3);
  expect(picked).toEqual([t1, a1, b]);
  expect(selectCandidates([b, a1, c], 5)).toEqual([b, a1, c]);
});

const specs: ToolSpec[] = [
  { name: 'multiply', description: '', parameters: {}, strict: false, isTerminal: false, hasIsActive: false },
  { name: 'final_answer', description: '', parameters: {}, strict: false, isTerminal: true, hasIsActive: false },
];
const rules = (over: Partial<TerminationRules> = {}): TerminationRules => ({ threshold: 1, maxDepth: 3, toolChoice: 'auto', specs, ...over });

test('output messages: text answers and terminal tool calls', () => {
  expect(isOutputMessage(assistantMessage('done'), specs)).toBe(true);
  expect(isOutputMessage(call('final_answer', '{"answer":1}'), specs)).toBe(true);
  expect(isOutputMessage(call('multiply', '{}'), specs)).toBe(false);
});

function tree() {
  const t = createAgentTree([userMessage('task')]);
  const step = (parent: number, output: boolean, score: number) => {
    const n = t.expand(parent, { ref: `r${t.nextId}`, output });
    t.setScore(n.id, score);
    return n.id;
  };
  return { t, step };
}

test('solutions and terminal nodes follow the seed: output nodes and max depth end a trajectory', () => {
  const { t, step } = tree();
  const tool = step(0, false, 1);
  const text = step(0, true, 1);
  const low = step(0, true, 0.4);
  expect(isSolution(t.node(tool), rules())).toBe(false); // could still produce output, so a tool step is no solution
  expect(isSolution(t.node(text), rules())).toBe(true);
  expect(isTerminal(t.node(low), rules())).toBe(true);
  expect(isSolution(t.node(low), rules())).toBe(false);
  // When the agent cannot produce output (tool use required, no terminal tool), a high score is a solution.
  const noOutput = rules({ toolChoice: 'required', specs: [specs[0]] });
  expect(isSolution(t.node(tool), noOutput)).toBe(true);
  const deep = step(step(tool, false, 0.1), false, 0.1);
  expect(t.node(deep).depth).toBe(3);
  expect(isTerminal(t.node(deep), rules())).toBe(true);
  expect(isTerminal(t.node(tool), rules())).toBe(false);
});

test('best node: finished answers beat higher-scoring unfinished ones; ties go to the later leaf', () => {
  const { t, step } = tree();
  step(0, false, 0.9);
  const answer = step(0, true, 0.2);
  expect(bestNode(t).id).toBe(answer);
  const later = step(0, true, 0.2);
  expect(bestNode(t).id).toBe(later);
  const { t: only } = tree();
  expect(bestNode(only).id).toBe(0);
});
