import { readFileSync } from 'node:fs';
import { parseInput } from '../../../core/schemas/parse-input';
import { SessionInputSchema } from '../../../core/session/session-input';
import { GroveClient } from '../../grove-client';
import { parseCommandArgs, UsageError } from '../usage-error';
import { completedRunLines } from './print-outcome';
import { shorten } from '../../../core/conversation/preview';
import type { PendingApproval } from '../../../core/steering/approvals';

type Io = { out: (line: string) => void };

/** `grove session send|close`. */
export async function sessionCommand(args: string[], io: Io): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'send' && sub !== 'close') throw new UsageError(`session: expected "send" or "close", got ${sub === undefined ? 'nothing' : `"${sub}"`}`);
  const command = `session ${sub}`;
  const { values, positionals } = parseCommandArgs(
    command,
    rest,
    { input: { type: 'string' }, by: { type: 'string' }, reason: { type: 'string' }, json: { type: 'boolean' } },
    sub === 'send' ? 2 : 1,
  );
  const [workflowId, text] = positionals;
  if (!workflowId) throw new UsageError(`${command}: WORKFLOW_ID is required`);
  if (sub === 'send' && !text) throw new UsageError(`${command}: TEXT is required`);
  const input = values.input === undefined ? undefined : parseInput(SessionInputSchema, readJson(command, values.input), 'session input');
  const grove = await GroveClient.connect();
  try {
    const chat = grove.session(workflowId, { input: input as never, by: values.by });
    if (sub === 'send') {
      // A message to a closed session would start a new conversation under its id (and `grove show` would lose the old one): refused.
      const ended = await grove.state(workflowId).then((st) => (st.status === 'running' ? undefined : st.status), () => undefined);
      if (ended) throw new UsageError(`${command}: session ${workflowId} has ended (${ended}); a message would start a new conversation under the same id — send it to another id (\`grove session send NEW_ID …\`)`);
      // A tool call that waits for a person is said at once, with the command that decides it.
      const stopTelling = tellApprovals(() => chat.pending(), workflowId, (line) => process.stderr.write(`${line}\n`));
      const result = await chat.send(text!).finally(stopTelling);
      if (values.json) return io.out(JSON.stringify(result));
      io.out(result.reply ?? `(no reply: the turn ended ${result.ended})`);
      if (result.ended !== 'answered') io.out(`(turn ${result.turn} ${result.ended})`);
      return;
    }
    const result = await chat.close({ reason: values.reason });
    if (values.json) return io.out(JSON.stringify(result));
    // The same words as `grove result` on this session: how it ended first, then the transcript.
    for (const line of completedRunLines('session', result as never)) io.out(line);
  } finally {
    await grove.close();
  }
}

/**
 * Watches a run's tool calls waiting for approval while a command waits on it, and says each once,
 * naming who must act and how: `waiting for approval: save_note({"text":"call mom"}) (call c1,
 * turn 2) — run \`grove approve chat-1\` (or --reject)`. Returns the function that stops watching.
 *
 * @example
 * const stop = tellApprovals(() => chat.pending(), 'chat-1', console.error);
 */
export function tellApprovals(pending: () => Promise<PendingApproval[]>, workflowId: string, say: (line: string) => void, everyMs = 500): () => void {
  const told = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    const waiting = await pending().catch(() => [] as PendingApproval[]);
    if (stopped) return;
    for (const p of waiting) {
      if (told.has(p.callId)) continue;
      told.add(p.callId);
      const which = waiting.length > 1 ? ` --call ${p.callId}` : '';
      say(`waiting for approval: ${p.tool}(${shorten(p.arguments, 120)}) (call ${p.callId}, ${p.where}) — run \`grove approve ${workflowId}${which}\` (or add --reject)`);
    }
    timer = setTimeout(tick, everyMs);
  };
  timer = setTimeout(tick, everyMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function readJson(command: string, path: string): unknown {
  try {
    return JSON.parse(readFileSync(path === '-' ? 0 : path, 'utf8'));
  } catch (err) {
    throw new UsageError(`${command}: cannot read --input ${path} (${(err as Error).message})`);
  }
}
