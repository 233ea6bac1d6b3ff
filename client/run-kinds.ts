import type { z } from 'zod';
import { AgentInputSchema } from '../core/agents/agent-options';
import type { RunKindName as KindName } from '../core/runs/run-kind-names';
import { AgentResultSchema, type AgentResult } from '../core/agents/agent-result';
import { CodeFixerInputSchema, CodeFixerResultSchema, type CodeFixerResult } from '../core/code/code-fixer-input';
import { AiretryInputSchema, AiretryResultSchema, type AiretryResult } from '../core/airetry/airetry-input';
import { GenerateInputSchema, GenerateResultSchema, type GenerateResult } from '../core/generate/generate-input';
import { SessionInputSchema } from '../core/session/session-input';
import { SessionResultSchema, type SessionResult } from '../core/session/session-result';
import { shorten } from '../core/conversation/preview';

/**
 * The ready-made workflows a client can start by name, each with its input schema (checked
 * before the run starts) and how it is described in the Temporal UI. A kind's name (the key,
 * from `RUN_KIND_NAMES`) is what the client, the CLI, `GroveKind`, the policy, the viewer and the
 * schemas call it; `workflowType` is the workflow function another Temporal client starts.
 */
export interface RunKind<S extends z.ZodType = z.ZodType, R = unknown> {
  workflowType: string;
  schema: S;
  /** The published shape of the result (docs/schemas/<kind>.result.json). */
  resultSchema: z.ZodType;
  /** One line shown as the run's summary in the UI. */
  summary(input: z.output<S>): string;
  /** @internal type carrier for the result */
  result?: R;
}

/** `fork of agent-1a2b at n7 — ` for a fork's summary. */
const forkOf = (input: { fork?: { parent: { workflowId: string }; nodeId: number } }) =>
  input.fork ? `fork of ${input.fork.parent.workflowId} at n${input.fork.nodeId} — ` : '';

export const RUN_KINDS = {
  generate: {
    workflowType: 'generate',
    schema: GenerateInputSchema,
    resultSchema: GenerateResultSchema,
    summary: (input) => `generate: ${shorten(input.prompt ?? `${input.messages?.length ?? 0} messages`, 80)}`,
  } satisfies RunKind<typeof GenerateInputSchema, GenerateResult>,
  airetry: {
    workflowType: 'airetry',
    schema: AiretryInputSchema,
    resultSchema: AiretryResultSchema,
    summary: (input) =>
      `${forkOf(input)}airetry (${input.checks.length} check${input.checks.length === 1 ? '' : 's'}): ${shorten(input.prompt ?? `${input.messages?.length ?? 0} messages`, 60)}`,
  } satisfies RunKind<typeof AiretryInputSchema, AiretryResult>,
  agent: {
    workflowType: 'agent',
    schema: AgentInputSchema,
    resultSchema: AgentResultSchema,
    summary: (input) => `${forkOf(input)}agent ${input.algorithm} (${input.tools.join(', ')}): ${shorten(input.prompt ?? `${input.messages?.length ?? 0} messages`, 60)}`,
  } satisfies RunKind<typeof AgentInputSchema, AgentResult>,
  'code-fixer': {
    workflowType: 'codeFixer',
    schema: CodeFixerInputSchema,
    resultSchema: CodeFixerResultSchema,
    summary: (input) => `code fixer (${input.language}, ${input.numRounds} rounds): ${shorten(input.prompt ?? `${input.messages?.length ?? 0} messages`, 60)}`,
  } satisfies RunKind<typeof CodeFixerInputSchema, CodeFixerResult>,
  session: {
    workflowType: 'session',
    schema: SessionInputSchema,
    resultSchema: SessionResultSchema,
    summary: (input) =>
      `session${input.tools.length ? ` (${input.tools.join(', ')})` : ''}: ${shorten(input.system ?? (input.messages?.length ? `${input.messages.length} messages` : 'conversation'), 60)}`,
  } satisfies RunKind<typeof SessionInputSchema, SessionResult>,
} satisfies Record<KindName, RunKind>; // one entry per name of RUN_KIND_NAMES, no other

export type RunKindName = keyof typeof RUN_KINDS;
export type RunInput<K extends RunKindName> = z.input<(typeof RUN_KINDS)[K]['schema']>;
export type RunResult<K extends RunKindName> = K extends 'generate'
  ? GenerateResult
  : K extends 'airetry'
    ? AiretryResult
    : K extends 'agent'
      ? AgentResult
      : K extends 'session'
        ? SessionResult
        : K extends 'code-fixer'
          ? CodeFixerResult
          : never;
