import { readFileSync } from 'node:fs';
import { parseInput } from '../../../core/schemas/parse-input';
import { SessionInputSchema } from '../../../core/session/session-input';
import { GroveClient } from '../../grove-client';
import { parseCommandArgs, UsageError } from '../usage-error';
import { sessionLines } from './session-text';

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
      const result = await chat.send(text!);
      if (values.json) return io.out(JSON.stringify(result));
      io.out(result.reply ?? `(no reply: the turn ended ${result.ended})`);
      if (result.ended !== 'answered') io.out(`(turn ${result.turn} ${result.ended})`);
      return;
    }
    const result = await chat.close({ reason: values.reason });
    if (values.json) return io.out(JSON.stringify(result));
    for (const line of sessionLines(result)) io.out(line);
  } finally {
    await grove.close();
  }
}

function readJson(command: string, path: string): unknown {
  try {
    return JSON.parse(readFileSync(path === '-' ? 0 : path, 'utf8'));
  } catch (err) {
    throw new UsageError(`${command}: cannot read --input ${path} (${(err as Error).message})`);
  }
}
