/**
 * Injected faults, checked in order per request. WHY rules with counts instead of random
 * failure rates: a test must know exactly which call fails ("the 2nd call to multiplier gets a
 * 429 once") so that its assertions about retries and durability are exact.
 */
import { z } from 'zod';
import type { FaultAction, FaultRule } from './types';

export const faultRuleSchema = z.strictObject({
  match: z
    .strictObject({
      model: z.string().optional(),
      contains: z.string().optional(),
      callIndex: z.number().int().min(0).optional(),
      callKeyPrefix: z.string().optional(),
      every: z.number().int().min(1).optional(),
    })
    .optional(),
  action: z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('status'),
      status: z.number().int().min(400).max(599),
      retryAfterSeconds: z.number().min(0).optional(),
      message: z.string().optional(),
      code: z.string().optional(),
    }),
    z.strictObject({ kind: z.literal('latency'), ms: z.number().min(0) }),
    z.strictObject({ kind: z.literal('malformed'), body: z.string().optional() }),
    z.strictObject({ kind: z.literal('hang') }),
  ]),
  times: z.number().int().min(0).optional(),
});

/** What a request looks like to the fault matcher. */
export interface FaultTarget {
  /** Policy name (or the raw model string when no policy matched). */
  policy: string;
  /** The full model string as sent. */
  model: string;
  /** Message texts (chat) or inputs (embeddings). */
  texts: readonly string[];
  /** 0-based index of this request among the requests to `policy`. */
  callIndex: number;
  callKey?: string;
}

/**
 * True when a rule's match applies to a request (an absent field matches anything).
 *
 * @example
 * faultMatches({ action: { kind: 'hang' } }, { policy: 'echo', model: 'echo', texts: [], callIndex: 0 }) // true
 */
export function faultMatches(rule: FaultRule, t: FaultTarget): boolean {
  const m = rule.match ?? {};
  if (m.model !== undefined && m.model !== t.policy && m.model !== t.model) return false;
  if (m.contains !== undefined && !t.texts.some((x) => x.includes(m.contains!))) return false;
  if (m.callIndex !== undefined && m.callIndex !== t.callIndex) return false;
  if (m.callKeyPrefix !== undefined && !(t.callKey ?? '').startsWith(m.callKeyPrefix)) return false;
  return true;
}

/** The ordered list of fault rules with their remaining uses. */
export class FaultBook {
  private rules: { rule: FaultRule; used: number; seen: number }[] = [];

  /** Appends a rule after validating it (throws a TypeError on an invalid rule). */
  add(rule: FaultRule): void {
    const parsed = faultRuleSchema.safeParse(rule);
    if (!parsed.success) throw new TypeError(`Invalid fault rule: ${z.prettifyError(parsed.error)}`);
    this.rules.push({ rule: parsed.data as FaultRule, used: 0, seen: 0 });
  }

  clear(): void {
    this.rules = [];
  }

  /** Number of rules (spent ones included). */
  get size(): number {
    return this.rules.length;
  }

  /** The action of the first matching rule with uses left, consuming one use. */
  take(target: FaultTarget): FaultAction | undefined {
    for (const r of this.rules) {
      const times = r.rule.times ?? 1;
      if (times !== 0 && r.used >= times) continue;
      if (!faultMatches(r.rule, target)) continue;
      const every = r.rule.match?.every;
      if (every !== undefined && ++r.seen % every !== 0) continue;
      r.used++;
      return r.rule.action;
    }
    return undefined;
  }
}
