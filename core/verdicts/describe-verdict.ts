import type { Verdict } from './verdict';

/** What a verdict claims, in the words of its run kind: `{ ok, yes: 'solved', no: 'not solved' }`. */
export interface VerdictClaim {
  ok: boolean;
  yes: string;
  no: string;
}

/**
 * One line saying what a run claims and who decided it, as grove's CLI prints it. An
 * unverified "yes" never reads as a bare success: an LLM judge's verdict says it was judged, by
 * which model, whether that model wrote the answer, and that it is not verified; a result that
 * does not say who decided (a run from before grove recorded it) says so.
 *
 * @example
 * describeVerdict({ by: 'judge', model: 'smollm2', selfJudged: true, verified: false }, { ok: true, yes: 'solved', no: 'not solved' });
 * // 'judged solved by smollm2, the model that wrote it; not verified'
 * describeVerdict({ by: 'evaluator', evaluator: 'multiplication-checker', verified: true }, { ok: true, yes: 'solved', no: 'not solved' });
 * // 'solved (by evaluator multiplication-checker)'
 */
export function describeVerdict(verdict: Verdict | undefined, claim: VerdictClaim): string {
  const head = claim.ok ? claim.yes : claim.no;
  if (!verdict) return `${head}; who decided is not recorded (a run from before grove recorded it): not verified`;
  switch (verdict.by) {
    case 'judge': {
      const who = `${verdict.model ?? 'a model'}${verdict.selfJudged ? ', the model that wrote it' : ''}`;
      return claim.ok ? `judged ${head} by ${who}; not verified` : `${head} (judged by ${who})`;
    }
    case 'evaluator':
      return `${head} (by evaluator ${verdict.evaluator})`;
    case 'tests':
      return `${head} (by tests${verdict.evaluator ? `: evaluator ${verdict.evaluator}` : ''}${claim.ok && !verdict.verified && verdict.evaluator ? '; not every test passed: not verified' : ''})`;
    case 'checks': {
      const judges = verdict.judges ?? [];
      if (judges.length === 0) return `${head} (by deterministic checks)`;
      const named = judges.map((j) => `${j.check ?? 'a check'} judged by ${j.model}${j.selfJudged ? ', the model that wrote the answer' : ''}`).join('; ');
      return `${head} (by checks; ${named}${claim.ok ? '; not verified' : ''})`;
    }
  }
}

/**
 * Whether a result's "yes" can be taken as a success by a script: only when something other
 * than a model's opinion decided it. A result without a verdict is not.
 *
 * @example
 * isVerifiedSuccess(true, { by: 'judge', model: 'm', selfJudged: false, verified: false }); // false
 */
export function isVerifiedSuccess(ok: boolean, verdict: Verdict | undefined): boolean {
  return ok && verdict?.verified === true;
}

/**
 * Who decided, in words: `decided by deterministic checks`, `judged by smollm2, the model that
 * wrote the answer; not verified`, `decided by evaluator multiplication-checker`, `decided by tests`.
 *
 * @example
 * whoDecided({ by: 'tests', verified: true }); // 'decided by tests'
 */
export function whoDecided(verdict: Verdict | undefined): string {
  if (!verdict) return 'who decided is not recorded: not verified';
  switch (verdict.by) {
    case 'judge':
      return `judged by ${verdict.model ?? 'a model'}${verdict.selfJudged ? ', the model that wrote the answer' : ''}; not verified`;
    case 'evaluator':
      return `decided by evaluator ${verdict.evaluator}`;
    case 'tests':
      return `decided by tests${verdict.evaluator ? ` (evaluator ${verdict.evaluator})` : ''}`;
    case 'checks':
      return verdict.judges?.length ? `decided by checks, ${verdict.judges.length} of them by an LLM judge; not verified` : 'decided by deterministic checks';
  }
}
