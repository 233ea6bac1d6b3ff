import { SteeringError } from '../../client/steering-client';
import type { SessionTreeView } from '../../core/session/message-tree';
import { integrationSuite } from '../support/integration-suite';
import { rejection } from '../support/rejection';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { groveClient, testLlmConfig, testWorker, uniqueTaskQueue } from '../support/temporal-env';

const suite = integrationSuite('session');

/** The model requests one session made (its call keys start with the workflow id). */
const requestsOf = (workflowId: string) => suite.model.stats().requests.filter((r) => r.callKey?.startsWith(`${workflowId}/`));
const texts = (messages: { content: unknown }[]) => messages.map((m) => m.content);

test('three turns, a rewind to turn 1 with new content, and the conversation goes on from there without re-paying the kept prefix', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const id = `${taskQueue}-chat`;
    const chat = grove.session(id, { input: { model: 'concierge' }, by: 'ana' });

    const first = await chat.send('What is the capital of France?');
    const second = await chat.send('And the capital of Italy?');
    const third = await chat.send('What did you just say?');
    expect([first.turn, second.turn, third.turn]).toEqual([1, 2, 3]);
    expect(third.reply).toBe(`Before this, I said: "${second.reply}"`);
    expect(requestsOf(id).map((r) => r.outcome)).toEqual(['completed', 'completed', 'completed']);

    const rewind = await chat.rewind({ n: 1, content: 'Paris.' });
    expect(rewind).toMatchObject({ seq: 1, by: 'ana', source: 'update', n: 1, targetId: 2, abandoned: 5 });
    const fourth = await chat.send('What did you just say?');
    expect(fourth).toMatchObject({ turn: 2, ended: 'answered', reply: 'Before this, I said: "Paris."' });

    // The model server saw exactly one more request, and it carried the kept prefix plus the new message.
    const requests = requestsOf(id);
    expect(requests).toHaveLength(4);
    expect(requests.map((r) => r.messages)).toEqual([2, 4, 6, 4]);
    expect(requests.filter((r) => r.lastUserText === 'What is the capital of France?')).toHaveLength(1);
    expect(suite.model.stats().callKeys.repeatedAfterCompletion).toBe(0);

    // The abandoned branch stays in the tree, flagged, with who pruned it.
    const tree: SessionTreeView = await chat.tree();
    expect(tree.nodes.filter((n) => n.abandoned).map((n) => [n.id, n.role, n.abandonedBy])).toEqual([
      [2, 'assistant', 1],
      [3, 'user', 1],
      [4, 'assistant', 1],
      [5, 'user', 1],
      [6, 'assistant', 1],
    ]);
    expect(tree.nodes[7]).toMatchObject({ parentId: 1, role: 'assistant', preview: 'Paris.', kind: 'replacement', by: 'ana', abandoned: false });
    expect(tree.head).toBe(9);
    const text = await grove.tree(id);
    expect(text.kind).toBe('session');
    expect(text.text).toContain('[abandoned by rewind 1]');

    const closed = await chat.close({ reason: 'done' });
    expect(texts(closed.conversation)).toEqual(['Act as a helpful AI assistant', 'What is the capital of France?', 'Paris.', 'What did you just say?', 'Before this, I said: "Paris."']);
    expect(closed.actions.map((a) => [a.by, a.action])).toEqual([
      ['ana', 'send'],
      ['ana', 'send'],
      ['ana', 'send'],
      ['ana', 'rewind'],
      ['ana', 'send'],
      ['ana', 'close'],
    ]);
    expect(closed.actions.every((a) => a.at > 1.7e12)).toBe(true);
    expect(await grove.temporal.workflow.getHandle(id).result()).toEqual(closed);
  });
});

test('the model calls its rewind tool with a bad n and gets the corrective message; a good n rewinds', async () => {
  await suite.withWorker(async (taskQueue) => {
    const chat = groveClient(suite.env, taskQueue).session(`${taskQueue}-tool`, { input: { model: 'concierge', rewindTool: true } });
    await chat.send('Hello!');
    const bad = await chat.send('Please rewind to message 7: Hi!');
    expect(bad.ended).toBe('answered');
    expect(bad.reply).toMatch(/^I could not do that: could not rewind to your message 7: there is only 1 assistant message/);
    const tree = await chat.tree();
    expect(tree.nodes.find((n) => n.kind === 'correction')).toMatchObject({ role: 'tool', abandoned: false });
    expect(tree.rewinds).toEqual([]);

    const good = await chat.send('Rewind to message 1: Hi, I am your concierge.');
    expect(good).toMatchObject({ ended: 'rewound', reply: 'Hi, I am your concierge.', rewind: { n: 1, targetId: 2 } });
    expect(texts(await chat.conversation())).toEqual(['Act as a helpful AI assistant', 'Hello!', 'Hi, I am your concierge.']);
    expect((await chat.tree()).rewinds[0]).toMatchObject({ by: 'model', source: 'tool' });
    await chat.close();
  });
});

test('every update is validated before it is recorded: bad fields are named, impossible rewinds and finished runs are refused', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const id = `${taskQueue}-checks`;
    const chat = grove.session(id, { input: { model: 'concierge' }, by: 'ana' });
    await chat.send('Hi');
    const handle = grove.temporal.workflow.getHandle(id);
    const raw = (name: string, args: unknown) => rejection(handle.executeUpdate(name, { args: [args] }));

    const empty = (await raw('send', { content: '' })) as Error & { cause?: Error };
    expect(empty.cause?.message).toBe('invalid send request: content: must not be empty');
    const pastStart = (await rejection(chat.rewind({ n: -3, content: 'x' }))) as SteeringError;
    expect(pastStart).toBeInstanceOf(SteeringError);
    expect(pastStart.type).toBe('GroveUpdateRejected');
    expect(pastStart.message).toBe(
      'rewind rejected: going back 3 assistant messages goes past the start of the conversation, which has 1 (n must be 1 to 1, or -1 to -1 counting back from the latest)',
    );
    const toUser = (await rejection(chat.rewind({ messageId: 1, content: 'x' }))) as SteeringError;
    expect(toUser.message).toMatch(/^rewind rejected: message 1 is a user message: only assistant messages can be rewound/);
    const noBy = (await raw('rewind', { n: 1, content: 'x' })) as Error & { cause?: Error };
    expect(noBy.cause?.message).toMatch(/^invalid rewind request: by: /);
    const both = (await raw('rewind', { n: 1, messageId: 2, content: 'x', by: 'ana' })) as Error & { cause?: Error };
    expect(both.cause?.message).toBe('invalid rewind request: n: give exactly one of `n` (the nth assistant message) or `messageId`');
    const stopIdle = (await rejection(chat.stop())) as SteeringError;
    expect(stopIdle.message).toBe('stop rejected: no turn is in progress, so there is nothing to stop (`close` ends the session)');
    const noPending = (await rejection(chat.approve())) as SteeringError;
    expect(noPending.message).toBe('approve rejected: no tool call is waiting for approval');

    // None of the rejected updates entered the history; the accepted send did.
    const history = await handle.fetchHistory();
    const accepted = history.events!.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
    expect(accepted.map((e) => e.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest!.input!.name)).toEqual(['send']);

    await chat.close();
    const finished = (await rejection(chat.rewind({ n: 1, content: 'x' }))) as SteeringError;
    expect(finished.type).toBe('GroveRunFinished');
    expect(finished.message).toBe(`run ${id} has finished (completed): rewind needs a running session; a closed one cannot be continued (\`grove session send NEW_ID …\` starts another)`);
    expect(((await rejection(grove.steer().stop('no-such-run'))) as SteeringError).type).toBe('GroveRunNotFound');
    // A client-side check names the field before anything is sent.
    expect(() => chat.rewind({ n: 1, content: '' })).toThrow('invalid rewind request: content: must not be empty');
  });
});

test('feedback on an idle session is seen by the next reply; a long session continues as new and stays rewindable', async () => {
  await suite.withWorker(async (taskQueue) => {
    const grove = groveClient(suite.env, taskQueue);
    const id = `${taskQueue}-long`;
    const chat = grove.session(id, { input: { model: 'concierge', turnsPerRun: 2 }, by: 'ana' });
    await chat.send('Tell me about Rome');
    const feedback = await chat.feedback({ text: 'Please be shorter.', by: 'bob' });
    expect(feedback).toEqual({ messageId: 3, queued: false });
    const second = await chat.send('Tell me about Paris');
    expect(second.reply).toMatch(/^Thanks for the feedback \("Please be shorter."\)/);
    // Two turns: the session hands over to a new run, carrying the conversation by reference.
    const third = await chat.send('What did you just say?');
    expect(third.reply).toBe(`Before this, I said: "${second.reply}"`);
    const runs = [];
    for await (const run of grove.temporal.workflow.list({ query: `WorkflowId = "${id}"` })) runs.push(run);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    // A rewind to a message of the first run, after the handover.
    await chat.rewind({ n: 1, content: 'Rome is old.' });
    const fourth = await chat.send('What did you just say?');
    expect(fourth.reply).toBe('Before this, I said: "Rome is old."');
    expect(requestsOf(id)).toHaveLength(4);
    expect(suite.model.stats().callKeys.repeatedAfterCompletion).toBe(0);
    const closed = await chat.close();
    expect(closed.counters.handovers).toBeGreaterThanOrEqual(1);
    expect(closed.tree.nodes.filter((n) => n.abandoned).length).toBe(6);
    expect(closed.actions.map((a) => a.action)).toEqual(['send', 'feedback', 'send', 'send', 'rewind', 'send', 'close']);
  });
});

/** A store that never finds anything it was given: a wiped folder, or one on another host. */
class AmnesicStore extends MemoryMessageStore {
  override async get() {
    return undefined;
  }
}

test('a session whose store keeps nothing recovers every message from history: replies, corrections, replacements, feedback, across a handover', async () => {
  const taskQueue = uniqueTaskQueue('session-amnesic');
  const worker = await testWorker(suite.env, { taskQueue, llm: testLlmConfig(suite.model.baseURL), store: new AmnesicStore() });
  await worker.runUntil(async () => {
    const grove = groveClient(suite.env, taskQueue);
    const id = `${taskQueue}-chat`;
    const chat = grove.session(id, { input: { model: 'concierge', rewindTool: true, turnsPerRun: 2 }, by: 'ana' });
    await chat.send('Hello!');
    const corrected = await chat.send('Rewind to message 5: nothing');
    expect(corrected.reply).toMatch(/^I could not do that: could not rewind to your message 5/);
    await chat.rewind({ n: 1, content: 'Hi, I am your concierge.' });
    await chat.feedback({ text: 'Be brief.' });
    const after = await chat.send('Tell me about Rome');
    expect(after.reply).toMatch(/^Thanks for the feedback \("Be brief."\)/);
    const last = await chat.send('What did you say?');
    expect(last.reply).toBe(`Before this, I said: "${after.reply}"`);
    const closed = await chat.close();
    expect(closed.counters.handovers).toBeGreaterThanOrEqual(1);
    // Recovered inside each activity: none failed for it, in any run of the session.
    for await (const run of grove.temporal.workflow.list({ query: `WorkflowId = "${id}"` })) {
      const history = await grove.temporal.workflow.getHandle(id, run.runId).fetchHistory();
      expect((history.events ?? []).filter((e) => e.activityTaskFailedEventAttributes)).toEqual([]);
    }
  });
});
