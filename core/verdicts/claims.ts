import type { Verdict } from './verdict';

/** One claim of a stored result, re-checked: `holds` is null when it cannot be recomputed from what was stored. */
export interface ClaimCheck {
  /** The claim, e.g. `lowercase#1 passed`, `success: true`, `isSolution: true`. */
  claim: string;
  /** true: recomputed, and it holds; false: recomputed, and it does not; null: not recomputable here. */
  holds: boolean | null;
  /** What was recomputed on which output, or why it cannot be. */
  detail: string;
}

/** What `grove verify` reports: who decided, and each claim re-checked. */
export interface VerifyReport {
  workflowId: string;
  /** The run kind: `airetry`, `agent`, `code-fixer`, `generate`, ... */
  kind: string;
  verdict?: Verdict;
  claims: ClaimCheck[];
  /** No recomputed claim failed (claims that cannot be recomputed do not count either way). */
  holds: boolean;
}

/** A claim that was recomputed. */
export function recomputed(claim: string, holds: boolean, detail: string): ClaimCheck {
  return { claim, holds, detail };
}

/** A claim grove cannot recompute from what was stored, and why. */
export function notRecomputable(claim: string, detail: string): ClaimCheck {
  return { claim, holds: null, detail };
}

/**
 * The report of a run's claims.
 *
 * @example
 * verifyReport('airetry-1a2b', 'airetry', verdict, claims).holds; // false when some claim does not hold
 */
export function verifyReport(workflowId: string, kind: string, verdict: Verdict | undefined, claims: ClaimCheck[]): VerifyReport {
  return { workflowId, kind, ...(verdict ? { verdict } : {}), claims, holds: claims.every((c) => c.holds !== false) };
}

/** `"Yellow"`, shortened for a line of a report. */
export function quote(text: string, max = 60): string {
  const flat = JSON.stringify(text);
  return flat.length > max ? `${flat.slice(0, max - 2)}…"` : flat;
}
