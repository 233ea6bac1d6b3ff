import { z } from 'zod';
import { CheckSpecSchema } from '../airetry/checks';
import { ChatParamsSchema } from '../schemas/chat-params';
import { LlmSettingsSchema } from '../schemas/llm-settings';
import { RegistryPinSchema } from '../schemas/fleet';
import { MessageSchema } from '../schemas/messages';
import { ApprovalSettingsSchema } from '../schemas/steering';

/**
 * Input of the `session` workflow: a durable conversation that messages reach by update.
 * Validated by the client before the run starts, and again by the workflow.
 */
export const SessionInputSchema = z.strictObject({
  /** The system message; default "Act as a helpful AI assistant", `null` for none. */
  system: z.string().min(1).nullable().optional().describe('The system message; default "Act as a helpful AI assistant", null for none.'),
  /** Messages the conversation starts with, after the system message (e.g. a few examples). */
  messages: z.array(MessageSchema).max(1000).optional().describe('Messages the conversation starts with, after the system message (e.g. a few examples).'),
  model: z.string().min(1).optional().describe("The model (default the worker's GROVE_MODEL)."),
  /** Extra model parameters for every call of the conversation. */
  apiKwargs: ChatParamsSchema.optional().describe('Extra model parameters for every call of the conversation (OpenAI chat parameters).'),
  /** Names of tools registered on the workers that the model may call. */
  tools: z.array(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names are 1-64 letters, digits, _ or -')).max(64).default([]).describe('Names of tools registered on the workers that the model may call.'),
  /** Offer the model a `rewind` tool: go back to its nth message and replace it (langroid's RewindTool). */
  rewindTool: z.boolean().default(false).describe("Offer the model a `rewind` tool: go back to its nth message and replace it (langroid's RewindTool)."),
  /** Checks every answer must pass (airetry's catalogue); a failing one is fed back and the model answers again. */
  checks: z.array(CheckSpecSchema).max(32).default([]).describe("Checks every answer must pass (airetry's catalogue); a failing one is fed back and the model answers again."),
  /** Answers a turn may retry after failed checks. */
  checkRetries: z.number().int().min(0).max(20).default(2).describe('Answers a turn may retry after failed checks.'),
  /** Model calls a turn may make (tool rounds and check retries included) before it ends with what it has. */
  maxSteps: z.number().int().min(1).max(100).default(8).describe('Model calls a turn may make (tool rounds and check retries included) before it ends with what it has.'),
  /** How long a tool requiring approval waits for a person, and the decision when nobody decides. */
  approval: ApprovalSettingsSchema.default({ timeoutMs: 86_400_000, onTimeout: 'reject' }).describe('How long a tool requiring approval waits for a person, and the decision when nobody decides.'),
  /** Task queue of the workers that serve the tools (default: the run's own). */
  toolTaskQueue: z.string().min(1).optional().describe("Task queue of the workers that serve the tools (default the run's own)."),
  registry: RegistryPinSchema.optional(),
  /** Sent as the model's `seed`. */
  seed: z.number().int().optional().describe("Sent as the model's `seed`."),
  llm: LlmSettingsSchema.optional().describe('How model calls run as Temporal activities: task queue, timeouts, retries, reuse of paid results.'),
  /**
   * Continue as new after this many turns in one run (default: when Temporal suggests it, as
   * history approaches its limits). Either way the conversation goes on seamlessly.
   */
  turnsPerRun: z.number().int().min(1).optional().describe('Continue as new after this many turns in one run (default: when Temporal suggests it).'),
});
export type SessionInput = z.input<typeof SessionInputSchema>;
export type SessionOptions = z.output<typeof SessionInputSchema>;
