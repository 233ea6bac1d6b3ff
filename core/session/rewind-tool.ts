import { z } from 'zod';
import type { ToolSpec } from '../schemas/agent-activities';
import type { ToolCall } from '../schemas/messages';

/** The name the model calls. */
export const REWIND_TOOL_NAME = 'rewind';

/**
 * langroid's RewindTool, offered to the model of a session: it may go back to one of its own
 * earlier messages and replace it, dropping everything after it — to fix a wrong turn instead of
 * piling corrections on top of it. The workflow handles it (no activity): a rewind is pure
 * bookkeeping on the message tree.
 */
export const REWIND_TOOL_SPEC: ToolSpec = {
  name: REWIND_TOOL_NAME,
  description:
    'Go back to one of your own earlier messages in this conversation and replace it with new content. ' +
    'Everything after that message is dropped from the conversation, so use it to correct an earlier answer ' +
    'instead of adding corrections on top of it. n counts your messages from the first (1), or back from the latest (-1).',
  parameters: {
    type: 'object',
    properties: {
      n: { type: 'integer', description: 'Which of your messages: 1 is your first, 2 your second, ...; -1 is your latest, -2 the one before.' },
      content: { type: 'string', description: 'What that message should say instead.' },
    },
    required: ['n', 'content'],
    additionalProperties: false,
  },
  strict: true,
  isTerminal: false,
  hasIsActive: false,
};

const RewindArgsSchema = z.object({ n: z.number().int(), content: z.string().min(1) });

/**
 * The arguments of a rewind call, or why they are unusable (the model then gets a corrective
 * message, never a failure).
 *
 * @example
 * rewindArguments(call) // { ok: true, n: 2, content: 'The capital is Paris.' }
 */
export function rewindArguments(call: ToolCall): { ok: true; n: number; content: string } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(call.function.arguments || '{}');
  } catch (err) {
    return { ok: false, reason: `the arguments are not JSON (${(err as Error).message})` };
  }
  const parsed = RewindArgsSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ') };
  }
  return { ok: true, ...parsed.data };
}

/**
 * What the model reads when its rewind cannot be done (langroid: "Could not rewind to {n}th
 * Assistant message!"): the reason, and that nothing changed.
 *
 * @example
 * rewindCorrection(7, 'there are only 2 assistant messages (...)')
 */
export function rewindCorrection(n: number | undefined, reason: string): string {
  return `Error: could not rewind${n === undefined ? '' : ` to your message ${n}`}: ${reason}. Nothing was changed; go on with the conversation.`;
}
