import type { z } from 'zod';
import type { OperatorPolicy } from '../../core/policy/operator-policy';
import { enforcePolicy } from './operator-policy';
import { failRun, reportRun } from './run-status';
import { validateInput } from './validate-input';

/** How a run starts: what its input is called, and the kind it reports. */
export interface RunStartSpec<I> {
  /** What the input is called in an error ("airetry input"). */
  what: string;
  /** `GroveKind` of the run, also when its input is invalid; the policy's kind too unless `policyKind` says otherwise. */
  kind: string;
  /** `GroveKind` once the input is valid, when it says more (`agent:mcts`). */
  runningKind?: (input: I) => string;
  /** The operator policy's name for the kind (`agent` for every algorithm). */
  policyKind?: string;
  /** A continued run (continue-as-new) was reported when it started: it only enforces the policy again. */
  continued?: boolean;
  /**
   * Runs after validation, before the kind is reported: a workflow that decides something there
   * (a patch marker) keeps its place in the order of commands recorded runs replay.
   */
  beforeReport?: (input: I) => void;
}

/**
 * The start every run shares, in this order: its input validated (a bad one fails the run at
 * once, naming the field, with `GroveStatus = failed`), its kind and `running` status reported,
 * and the operator's policy enforced (a run over a ceiling fails the same way). The order is part
 * of what recorded histories replay — search-attribute updates, then the policy's patch marker
 * and local activity — so it never changes; a workflow that must do something in between says so
 * through `beforeReport`. Returns the valid input and the policy (undefined for runs recorded
 * before runs read one).
 *
 * @example
 * const { input, policy } = await startRun(AiretryInputSchema, raw, { what: 'airetry input', kind: 'airetry' });
 */
export async function startRun<S extends z.ZodType>(schema: S, raw: unknown, spec: RunStartSpec<z.output<S>>): Promise<{ input: z.output<S>; policy: OperatorPolicy | undefined }> {
  const input = validateInput(schema, raw, spec.what, spec.kind);
  spec.beforeReport?.(input);
  if (!spec.continued) reportRun({ kind: spec.runningKind?.(input) ?? spec.kind, status: 'running' });
  const policy = await enforcePolicy(spec.policyKind ?? spec.kind, input as Record<string, unknown>).catch((err: unknown) => failRun(err));
  return { input, policy };
}
