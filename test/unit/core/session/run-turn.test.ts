import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGroveActivities } from '../../../../activities/grove-activities';
import { inProcessSessionPort } from '../../../../activities/in-process/ports';
import { llmConfigFromEnv } from '../../../../activities/llm/llm-config';
import { MemoryMessageStore } from '../../../../activities/store/memory-message-store';
import { SessionInputSchema, type SessionInput } from '../../../../core/session/session-input';
import { runTurn, type SessionContext } from '../../../../core/session/run-turn';
import { SessionState } from '../../../../core/session/session-state';
import type { ApprovalAsk, ApprovalOutcome } from '../../../../core/steering/approvals';
import { noteTool } from '../../../../examples/tools/save-note';
import { exampleTools } from '../../../../examples/tools';
import { inProcessOpenAI } from '../../../../model-server';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'grove-turn-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const notes = () => {
  try {
    return readFileSync(join(dir, 'notes.jsonl'), 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

/** A session in process: the scripted `concierge`, the note tool, approvals decided by `decide`. */
async function session(input: Partial<SessionInput> = {}, decide?: (ask: ApprovalAsk) => ApprovalOutcome) {
  const client = inProcessOpenAI();
  const store = new MemoryMessageStore();
  const llm = llmConfigFromEnv({}, { baseURL: 'http://in-process/v1', apiKey: 'k', defaultModel: 'concierge' });
  const activities = createGroveActivities({ llm, store, client, tools: [noteTool(join(dir, 'notes.jsonl')), ...exampleTools] });
  const asked: ApprovalAsk[] = [];
  let clock = 1_000;
  const port = inProcessSessionPort(activities, {
    nowMs: () => (clock += 1),
    approve: decide
      ? async (ask) => {
          asked.push(ask);
          return decide(ask);
        }
      : undefined,
  });
  const options = SessionInputSchema.parse({ model: 'concierge', ...input });
  const specs = await activities.groveDescribeTools({ names: options.tools });
  const ctx: SessionContext = { state: SessionState.create(options, specs, 0), options, port };
  return { ctx, asked, send: (text: string) => runTurn(ctx, text, 'ana') };
}

test('a turn answers, and the next one sees the whole conversation by reference', async () => {
  const { ctx, send } = await session();
  const first = await send('What is the capital of France?');
  expect(first).toMatchObject({ turn: 1, ended: 'answered', calls: 1, messageId: 2 });
  expect(first.reply).toMatch(/^Good question: "What is the capital of France\?"/);
  const second = await send('What did you just say?');
  expect(second.reply).toBe(`Before this, I said: "${first.reply}"`);
  expect(ctx.state.tree.conversation().map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
  expect(ctx.state.counters).toMatchObject({ turns: 2, modelCalls: 2 });
});

test('a tool requiring approval runs once after it is approved, and not at all when rejected', async () => {
  let decision: 'approve' | 'reject' = 'approve';
  const { ctx, send, asked } = await session({ tools: ['save_note'] }, () => ({ decision, by: 'bob', at: 5, reason: decision === 'reject' ? 'not now' : undefined }));
  const saved = await send('Please save a note: buy milk');
  expect(asked.map((a) => [a.call.function.name, a.where])).toEqual([['save_note', 'turn 1']]);
  expect(saved).toMatchObject({ ended: 'answered', calls: 2, reply: 'Done: Saved the note "buy milk".' });
  expect(notes()).toEqual(['{"text":"buy milk"}']);
  decision = 'reject';
  const refused = await send('Now save a note: sell the car');
  expect(refused.reply).toBe('I could not do that: save_note was not run: bob rejected the call (not now).');
  expect(notes()).toHaveLength(1);
  expect(ctx.state.tree.view().nodes.filter((n) => n.kind === 'rejection')).toHaveLength(1);
  expect(ctx.state.counters.toolRuns).toBe(1);
});

test('without an approver a tool requiring approval never runs', async () => {
  const { send } = await session({ tools: ['save_note'] });
  const result = await send('save a note: x');
  expect(result.reply).toBe('I could not do that: save_note was not run: nobody rejected the call (nobody can approve calls in this process).');
  expect(notes()).toEqual([]);
});

test('the model-invoked rewind with a bad n gets a corrective tool message, never a failure', async () => {
  const { ctx, send } = await session({ rewindTool: true });
  await send('Hello there');
  const result = await send('Rewind to message 7: Hi!');
  expect(result.ended).toBe('answered');
  expect(result.calls).toBe(2);
  expect(result.reply).toBe(
    'I could not do that: could not rewind to your message 7: there is only 1 assistant message (n must be 1 to 1, or -1 to -1 counting back from the latest). Nothing was changed; go on with the conversation.',
  );
  const correction = ctx.state.tree.view().nodes.find((n) => n.kind === 'correction');
  expect(correction).toMatchObject({ role: 'tool', abandoned: false });
  expect(ctx.state.tree.rewinds).toEqual([]);
});

test('the model-invoked rewind with a good n replaces its message and ends the turn with the replacement', async () => {
  const { ctx, send } = await session({ rewindTool: true });
  await send('Hello there');
  await send('What is 2+2?');
  const result = await send('Rewind to message 1 and say Hi, I am the concierge.');
  expect(result).toMatchObject({ ended: 'rewound', reply: 'Hi, I am the concierge.', calls: 1, rewind: { n: 1, targetId: 2, abandoned: 5 } });
  expect(ctx.state.tree.conversation().map((m) => m.content)).toEqual(['Act as a helpful AI assistant', 'Hello there', 'Hi, I am the concierge.']);
  expect(ctx.state.tree.rewinds[0]).toMatchObject({ by: 'model', source: 'tool' });
  const next = await send('What did you say?');
  expect(next.reply).toBe('Before this, I said: "Hi, I am the concierge."');
});

test('a failed check is fed back and the answer retried within the turn', async () => {
  const { ctx, send } = await session({ checks: [{ kind: 'contains', value: 'feedback', feedback: 'Mention the feedback.' }] });
  const result = await send('Tell me something');
  expect(result).toMatchObject({ ended: 'answered', calls: 2, checks: [{ name: 'contains#0', passed: true }] });
  expect(result.reply).toMatch(/^Thanks for the feedback \("Mention the feedback."\)/);
  expect(ctx.state.counters.checkRetries).toBe(1);
  const noRetries = await session({ checks: [{ kind: 'equals', value: 'never' }], checkRetries: 1 });
  expect(await noRetries.send('Hi')).toMatchObject({ ended: 'checksFailed', calls: 2, checks: [{ name: 'equals#0', passed: false }] });
});

test('feedback queued during a turn is added before the next model call; a stop ends the turn with the best answer so far', async () => {
  const { ctx, send } = await session();
  await send('Say hi');
  const assistant = ctx.state.tree.assistantIds()[0];
  ctx.state.feedbackQueue.push({ targetId: assistant, text: 'Be more formal.', by: 'bob', at: 3 });
  const result = await send('Say hello');
  expect(result.reply).toMatch(/^Thanks for the feedback \("Be more formal."\)/);
  const stopped = await session({ tools: ['save_note'] }, () => {
    stopped.ctx.state.stop = { by: 'bob' };
    return { decision: 'reject', by: 'bob', at: 1, reason: 'the run was stopped' };
  });
  const outcome = await stopped.send('save a note: never');
  expect(outcome).toMatchObject({ ended: 'stopped', reply: null, messageId: null, calls: 1 });
});

test('a turn ends at maxSteps with what it has', async () => {
  const { send } = await session({ tools: ['save_note'], maxSteps: 1 }, () => ({ decision: 'approve', by: 'bob', at: 1 }));
  expect(await send('save a note: once')).toMatchObject({ ended: 'maxSteps', calls: 1, reply: null });
  expect(notes()).toHaveLength(1);
});

test('the example session input (README, docs/steering.md) is valid', () => {
  const example = JSON.parse(readFileSync(join(__dirname, '../../../../examples/inputs/session.json'), 'utf8'));
  expect(SessionInputSchema.parse(example)).toMatchObject({ model: 'concierge', tools: ['save_note'], rewindTool: true });
});

test('an answer with 200 tool calls: the first 64 run, one tool message answers the rest, the conversation stays valid', async () => {
  const { ctx, send } = await session({ model: 'echo?calls=200', tools: ['multiply'], maxSteps: 2 });
  const result = await send('Multiply everything.');
  expect(result).toMatchObject({ ended: 'maxSteps', calls: 2 });
  const conversation = ctx.state.tree.conversation();
  const [answer] = conversation.filter((m) => m.role === 'assistant');
  expect(answer).toMatchObject({ cut: { droppedToolCalls: 136 } });
  // 64 results and one answer for the dropped calls after each answer: every kept call answered (the second call of the turn was accepted).
  const tools = conversation.filter((m) => m.role === 'tool');
  expect(tools).toHaveLength(130);
  expect(tools[64]!.content).toMatch(/^Error: not run\. This answer made 200 tool calls and grove ran only the first 64/);
  expect(ctx.state.counters.toolRuns).toBe(128);
  expect(ctx.state.tree.view().nodes.filter((n) => n.kind === 'dropped')).toHaveLength(2);
});
