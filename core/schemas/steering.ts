import { z } from 'zod';
import { ContentPartSchema } from './messages';

/**
 * The arguments of every update that steers a running run — a message to a session, a rewind,
 * feedback, an approval, a stop, a close. Each update's validator parses its arguments with
 * these schemas before Temporal records the update, so a bad field is rejected (and named)
 * without entering the run's history. Every human action carries `by` (who), and the workflow
 * stamps it with workflow time (when); the arguments are the what.
 */

/** Long enough for a pasted document, short enough that one update cannot bloat history. */
export const MAX_MESSAGE_CHARS = 100_000;
export const MAX_NOTE_CHARS = 10_000;

/** Who acts: a person or a service, as it should appear in the audit log. */
export const ActorSchema = z.string().trim().min(1, 'say who acts (a user name or service)').max(200);

const Text = (max: number) => z.string().min(1, 'must not be empty').max(max);

/** `send`: a message to a durable conversation. */
export const SendRequestSchema = z.strictObject({
  content: z.union([Text(MAX_MESSAGE_CHARS), z.array(ContentPartSchema).min(1).max(64)]),
  /** Who sends it; default `user`. */
  by: ActorSchema.default('user'),
});
export type SendRequest = z.input<typeof SendRequestSchema>;

/**
 * `rewind` on a session: go back to an assistant message and replace it with `content`;
 * everything after it is dropped from the conversation (and kept in the tree as abandoned).
 * `n` counts assistant messages from 1 (the first) or back from -1 (the latest); `messageId`
 * names a node of the `tree` query instead.
 */
export const SessionRewindRequestSchema = z
  .strictObject({
    n: z.number().int().optional(),
    messageId: z.number().int().nonnegative().optional(),
    content: Text(MAX_MESSAGE_CHARS),
    by: ActorSchema,
  })
  .superRefine((v, ctx) => {
    if ((v.n === undefined) === (v.messageId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['n'], message: 'give exactly one of `n` (the nth assistant message) or `messageId`' });
    }
    if (v.n === 0) ctx.addIssue({ code: 'custom', path: ['n'], message: 'n counts from 1 (the first assistant message), or back from -1 (the latest)' });
  });
export type SessionRewindRequest = z.input<typeof SessionRewindRequestSchema>;

/**
 * `rewind` on an airetry or agent run: prune everything that grew from node `nodeId` and
 * re-expand from it — with `content`, the node's answer is replaced by it first; with
 * `feedback`, the next expansion sees it.
 */
export const TreeRewindRequestSchema = z.strictObject({
  nodeId: z.number().int().nonnegative(),
  content: Text(MAX_MESSAGE_CHARS).optional(),
  feedback: Text(MAX_NOTE_CHARS).optional(),
  by: ActorSchema,
});
export type TreeRewindRequest = z.input<typeof TreeRewindRequestSchema>;

/** `feedback`: "this is wrong because…" about a node (default: the latest answer), for the next expansion. */
export const FeedbackRequestSchema = z.strictObject({
  nodeId: z.number().int().nonnegative().optional(),
  text: Text(MAX_NOTE_CHARS),
  by: ActorSchema,
});
export type FeedbackRequest = z.input<typeof FeedbackRequestSchema>;

/** `approve`: the decision on a pending tool call (default: the only one pending). */
export const ApprovalRequestSchema = z.strictObject({
  callId: z.string().min(1).max(200).optional(),
  decision: z.enum(['approve', 'reject']).default('approve'),
  reason: z.string().max(MAX_NOTE_CHARS).optional(),
  by: ActorSchema,
});
export type ApprovalRequest = z.input<typeof ApprovalRequestSchema>;

/** `stop`: end the run (or a session's turn in progress) with the best answer so far. */
export const StopRequestSchema = z.strictObject({
  reason: z.string().max(MAX_NOTE_CHARS).optional(),
  by: ActorSchema,
});
export type StopRequest = z.input<typeof StopRequestSchema>;

/** `close`: end a session; the workflow returns its transcript. */
export const CloseRequestSchema = z.strictObject({
  reason: z.string().max(MAX_NOTE_CHARS).optional(),
  by: ActorSchema.default('user'),
});
export type CloseRequest = z.input<typeof CloseRequestSchema>;

/** How long a tool call waits for a person's decision, and what happens when nobody decides. */
export const ApprovalSettingsSchema = z.strictObject({
  /** How long a call requiring approval waits (a durable timer). Default one day. */
  timeoutMs: z.number().int().positive().max(30 * 86_400_000).default(86_400_000).describe('How long a call requiring approval waits for a person, in milliseconds (a durable timer).'),
  /** The decision when the wait times out. Default `reject`: nothing runs without a yes. */
  onTimeout: z.enum(['approve', 'reject']).default('reject').describe("The decision when nobody decides in time; 'reject' runs nothing without a yes."),
});
export type ApprovalSettings = z.output<typeof ApprovalSettingsSchema>;

/** One human action as the run records it: who, when (workflow time), what. */
export interface HumanAction {
  /** 1-based, in the order the run applied them. */
  seq: number;
  /** Workflow time, ms since the epoch. */
  at: number;
  by: string;
  action: 'send' | 'rewind' | 'feedback' | 'approve' | 'reject' | 'stop' | 'close';
  /** What it acted on: `message 4`, `n3`, `sample 5`, `call call_ab12 (save_note)`. */
  target?: string;
  /** The text given (feedback, reason, replacement), shortened. */
  detail?: string;
}
