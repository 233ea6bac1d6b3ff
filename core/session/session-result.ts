import { z } from 'zod';
import { MessageSchema, UsageSchema } from '../schemas/messages';
import type { HumanAction } from '../schemas/steering';
import type { SessionTreeView } from './message-tree';
import type { SessionCounters } from './session-state';

/** How a turn ended. */
export const TurnEndSchema = z.enum(['answered', 'rewound', 'stopped', 'maxSteps', 'checksFailed']);
export type TurnEnd = z.infer<typeof TurnEndSchema>;

/** What `send` returns: the assistant's reply to the message, and how the turn went. */
export interface SendResult {
  /** The reply's text (null when the turn ended without one, e.g. stopped before the model answered). */
  reply: string | null;
  /** The reply's node id in the `tree` query (null without a reply). */
  messageId: number | null;
  turn: number;
  ended: TurnEnd;
  /** Model calls this turn made. */
  calls: number;
  /** Set when the model rewound the conversation (its `rewind` tool): the reply is the replacement. */
  rewind?: { n: number; targetId: number; replacementId: number; abandoned: number };
  /** Checks of the final answer (when the session has checks). */
  checks?: { name: string; passed: boolean }[];
}

/** What the `session` workflow returns when it is closed. */
export const SessionResultSchema = z.object({
  kind: z.literal('session').describe("Always 'session'."),
  /** The live conversation at the close: the transcript. */
  conversation: z.array(MessageSchema).describe('The live conversation at the close: the transcript, as OpenAI chat messages.'),
  turns: z.number().int().describe('Messages sent to the session.'),
  closedBy: z.string().describe('Who closed it.'),
  counters: z.record(z.string(), z.number()).describe('Model calls, tool runs, rewinds and the like over the whole session.'),
  usage: UsageSchema.describe('Tokens used by every model call of the session.'),
  /** Every human action, in order. */
  actions: z.array(z.unknown()).describe('Every human action, in order: who, when (workflow time), what.'),
  /** The message tree (`tree` query shape), abandoned branches included. */
  tree: z.unknown().describe('The message tree (the `tree` query shape, docs/steering.md), abandoned branches included.'),
});
export type SessionResult = Omit<z.infer<typeof SessionResultSchema>, 'actions' | 'tree' | 'counters'> & {
  actions: HumanAction[];
  tree: SessionTreeView;
  counters: SessionCounters;
};
