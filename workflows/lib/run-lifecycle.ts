import type { z } from 'zod';
import type { OperatorPolicy } from '../../core/policy/operator-policy';
import { enforcePolicy } from './operator-policy';
import { failRun, reportRun } from './run-status';
import { validateInput } from './validate-input';

/** How a run starts: the kind it reports and the policy it is held to. */
export interface RunStartSpec<I> {
  /** `GroveKind` of the run, also when its input is invalid; the policy's kind too unless `policyKind` says otherwise. */
  kind: string;
  /** `GroveKind` once the input is valid, when it says more (`agent:mcts`). */
  runningKind?: (input: I) => string;
  /** The operator policy's name for the kind (`agent` for every algorithm). */
  policyKind?: string;
  /** A continued run (continue-as-new) was reported when it started: it only enforces the policy again. */
  continued?: boolean;
  /**
   * The caller's own `catch` fails the run (with `failRun`) when the policy refuses it; without,
   * the start fails it at once.
   */
  failsInCaller?: boolean;
}

/**
 * The start every run shares, in this order: its input validated (a bad one fails the run at
 * once, naming the field, with `GroveStatus = failed`), its kind and `running` status reported,
 * and the operator's policy enforced (a run over a ceiling fails the same way). The order is part
 * of what recorded histories replay — search-attribute updates, then the policy's patch marker
 * and local activity — so it never changes; a workflow that must decide something in between (a
 * patch marker) does it in `beforeReport`. Returns the valid input and the policy (undefined for
 * runs recorded before runs read one).
 *
 * @example
 * const { input, policy } = await startRun(AiretryInputSchema, raw, { what: 'airetry input', kind: 'airetry' });
 */
export async function startRun<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  spec: RunStartSpec<z.output<S>> & { what: string; beforeReport?: (input: z.output<S>) => void },
): Promise<{ input: z.output<S>; policy: OperatorPolicy | undefined }> {
  const input = validateInput(schema, raw, spec.what, spec.kind);
  spec.beforeReport?.(input);
  return { input, policy: await beginRun(input, spec) };
}

/**
 * The second half of `startRun`, for a workflow that validates its input long before (a session
 * registers its update handlers in between): the kind reported, then the policy enforced.
 *
 * @example
 * await beginRun(options, { kind: 'session', failsInCaller: true });
 */
export async function beginRun<I>(input: I, spec: RunStartSpec<I>): Promise<OperatorPolicy | undefined> {
  if (!spec.continued) reportRun({ kind: spec.runningKind?.(input) ?? spec.kind, status: 'running' });
  const policy = enforcePolicy(spec.policyKind ?? spec.kind, input as Record<string, unknown>);
  return spec.failsInCaller ? policy : policy.catch((err: unknown) => failRun(err));
}
