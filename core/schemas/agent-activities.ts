import type { ConversationInput } from '../hash/conversation-refs';
import type { Ref } from '../hash/refs';
import type { ToolCall, ToolMessage, Usage } from './messages';

/**
 * The contracts between the agent workflow and the worker-side tool and evaluator activities.
 * Everything here is plain JSON: it travels through workflow history.
 */

/** What the model is told about a tool, and how the search treats it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (from the tool's zod schema). */
  parameters: Record<string, unknown>;
  /** Whether the tool's JSON Schema is sent with `strict: true`. */
  strict: boolean;
  /** Calling it ends a trajectory (e.g. a final-answer tool). */
  isTerminal: boolean;
  /** The tool decides per trajectory whether it is offered (`groveActiveTools` asks it). */
  hasIsActive: boolean;
  /** A person must approve each call before it runs (`approve` update); the run waits durably. */
  requiresApproval?: boolean;
  /** Quick and idempotent: the workflow may run it as a local activity (`defineTool({ fast })`). */
  fast?: boolean;
}

/**
 * What every tool and evaluator input may carry: the fingerprint of the run's registry. A worker
 * with another registry refuses the call before anything runs (`GroveRegistryMismatch`).
 */
export interface RegistryBound {
  registry?: string;
}

/** `groveDescribeTools`: the specs of the named tools (a name the worker does not know is a non-retryable `GroveUnknownTool`). */
export interface DescribeToolsInput extends RegistryBound {
  names: string[];
}

/** `groveActiveTools`: which of `names` are active for the trajectory (tools without `isActive` always are). */
export interface ActiveToolsInput extends RegistryBound {
  names: string[];
  trajectory: ConversationInput;
}

/** `groveRunTool`: runs ONE tool call of an assistant message. */
export interface RunToolInput extends RegistryBound {
  /** The conversation before the calling assistant message (Saplings' `trajectory`). */
  trajectory: ConversationInput;
  call: ToolCall;
  /** The tools offered to the model for this turn; a call to any other name is answered with an error. */
  offered: string[];
  /** For a tool that requires approval: who approved this call, and when (workflow time). Without it such a tool does not run. */
  approval?: { by: string; at: number };
  /** The run's ledger key for this call (`CallLedger`): where its result is recorded for reuse. */
  callKey?: string;
}

export interface RunToolResult {
  /** What the model sees (`content`, from `formatOutput`) and what the tool returned (`rawOutput`). Already stored under `ref`. */
  message: ToolMessage;
  ref: Ref;
  /** True when the content reports a problem (unknown tool, invalid arguments, the tool threw). */
  isError: boolean;
}

/** Which evaluator scores a trajectory: grove's LLM evaluator, or one registered on the worker by name. */
export type EvaluatorSpec =
  | { name: 'llm'; model?: string; nSamples?: number; prompt?: string; temperature?: number }
  | { name: string; options?: Record<string, unknown> };

/** `groveEvaluate`: scores one trajectory (the prompt and every step after it). */
export interface EvaluateInput extends RegistryBound {
  evaluator: EvaluatorSpec;
  trajectory: ConversationInput;
  /** The run's ledger key for this call (`CallLedger`): where its result is recorded for reuse. */
  callKey?: string;
}

export interface EvaluateResult {
  /** In [0, 1]. */
  score: number;
  reasoning: string;
  /** Each sample's score in [0, 1] (LLM evaluator with nSamples > 1). */
  samples?: number[];
  /** Some sample was malformed and its score was repaired or defaulted (see the evaluator's rule). */
  repaired?: boolean;
  /**
   * The evaluation failed, and why: a custom evaluator threw or returned no valid score, or an
   * LLM judge gave no usable score in any sample. The node it scores is never a solution.
   */
  failed?: string;
  /** The judging model as the provider named it (the LLM evaluator). */
  model?: string;
  usage: Usage;
}

/** `groveResolvePath`: the conversation at a path (the search's final trajectory). */
export interface ResolvePathInput {
  path: ConversationInput;
}
