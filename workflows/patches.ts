/**
 * Every change to what running workflows schedule, in one place. A change that alters the
 * commands a workflow issues for the same history goes behind `patched(id)`: runs recorded
 * before it replay down the old branch, runs started after it take the new one. Each id is
 * declared here once — with the day it came, what it changes and the recorded histories that
 * replay each branch — and the workflows take their ids from here (`patchId`), so an id cannot
 * be misspelt or declared twice (`test/unit/workflows/patches.test.ts` checks the histories).
 *
 * Retirement rule (docs/durability.md, "Retiring a patch"): once no open run started before a
 * patch (`grove list --status running` shows none older than `since`, on every cluster that ran
 * grove), its `patched(id)` becomes `deprecatePatch(id)` for one release, and then the old branch
 * and the id go — together with the fixtures that replayed only the old branch.
 *
 * `grove-resume-<n>` (workflows/lib/resume-point.ts) is not a change but a marker per resume
 * of a run, so it is not listed here.
 *
 * @example
 * import { patched } from '@temporalio/workflow';
 * if (patched(patchId('grove-retry-window'))) { ... }
 */
export const PATCHES = {
  'grove-linear-patterns': {
    since: '2026-11-22',
    changes: 'airetry: user patterns (regex checks) matched in linear time (RE2) instead of by JavaScript\'s backtracking engine',
    before: ['airetry-color-game'],
    after: ['airetry-color-game-swept'],
  },
  'grove-status-every-ending': {
    since: '2026-11-22',
    changes: 'every workflow: the GroveStatus search attribute is written for every ending (cancelled, invalid input, counters on failure)',
    before: ['agent-mcts'],
    after: ['agent-mcts-failed-judged-by-its-model'],
  },
  'grove-operator-policy': {
    since: '2026-11-22',
    changes: 'every workflow: a run reads its worker\'s operator policy at start (an activity) and is held to it',
    before: ['agent-mcts', 'generate', 'airetry-color-game'],
    after: ['agent-mcts-fast-tools', 'session', 'code-fixer'],
  },
  'grove-lenient-json': {
    since: '2026-11-24',
    changes: 'aiExtract and airetry JSON checks: ```json fences accepted, the schema quoted in the feedback',
    before: ['airetry-extract-thompson'],
    after: ['airetry-color-game-swept'],
  },
  'grove-evaluator-run-model': {
    since: '2026-11-24',
    changes: 'agent: the LLM evaluator without a model of its own judges with the run\'s model',
    before: ['agent-mcts'],
    after: ['agent-mcts-failed-judged-by-its-model'],
  },
  'grove-anytime-budget': {
    since: '2026-11-24',
    changes: 'agent: the last expansion shrinks to the calls left instead of stopping with budget unused',
    before: ['agent-mcts'],
    after: ['agent-mcts-fast-tools'],
  },
  'grove-ordered-rounds': {
    since: '2026-11-25',
    changes: 'agent (beam): a level\'s children are attached in beam order, not as their calls finish',
    before: ['agent-beam'],
    after: ['agent-beam-ordered'],
  },
  'grove-planned-width': {
    since: '2026-11-25',
    changes: 'agent (MCTS, greedy): under a tight call budget an expansion is as wide as still lets the trajectory finish',
    before: ['agent-mcts-tight-budget'],
    after: ['agent-mcts-planned-width'],
  },
  'grove-fast-tools': {
    since: '2026-11-25',
    changes: 'agent: tools declared `fast` run as local activities',
    before: ['agent-mcts'],
    after: ['agent-mcts-fast-tools'],
  },
  'grove-fast-evaluators': {
    since: '2026-11-25',
    changes: 'agent: custom evaluators declared `fast` run as local activities',
    before: ['agent-mcts-custom-evaluator'],
    after: ['agent-mcts-fast-evaluator'],
  },
  'grove-retry-window': {
    since: '2026-11-25',
    changes: 'every workflow: a call\'s retries end with llm.retryWindowMs (attempts included), not with the larger of the window and startToCloseTimeoutMs',
    before: ['generate', 'agent-mcts-planned-width'],
    after: ['generate-retry-window', 'agent-mcts-retry-window'],
  },
  'grove-kind-code-fixer': {
    since: '2026-11-25',
    changes: 'codeFixer: the run kind is written `code-fixer` (search attribute, messages), the name every other surface uses',
    before: ['code-fixer-former-kind-name'],
    after: ['code-fixer'],
  },
  'grove-verified-checks': {
    since: '2026-11-25',
    changes: 'airetry: checks are swept until the returned answer passes them all (or the budget ends); a judge is asked once per answer',
    before: ['airetry-color-game'],
    after: ['airetry-color-game-swept'],
  },
  'grove-evaluation-failures': {
    since: '2026-11-25',
    changes: 'agent: an evaluation that fails (a judge with no usable score, a custom evaluator that throws or scores NaN) fails its node, not the run',
    before: ['agent-mcts-custom-evaluator'],
    after: ['agent-mcts-evaluation-failures'],
  },
  'grove-fleet-registry': {
    since: '2026-11-25',
    changes: 'agent, session: a run binds to the registry of the worker that starts it and sends its tools and custom evaluator only to workers with that registry',
    before: ['agent-mcts', 'session'],
    after: ['agent-mcts-fleet', 'session-fleet'],
  },
  'grove-json-schema-exact': {
    since: '2026-11-25',
    changes: 'airetry: JSON Schema checks and extraction hold every keyword by the standard\'s rules (keywords without a `type`, `required` names not under `properties`), not only where zod\'s reader applies them',
    before: ['airetry-color-game-swept'],
    after: ['airetry-json-schema-exact'],
  },
  'grove-model-calls': {
    since: '2026-11-25',
    changes: 'airetry, code fixer: `GroveCalls` and the result\'s `modelCalls` count the requests a model answered (a request for n samples is one; LLM-judge checks count), not the samples drawn; the code fixer\'s `GroveBestScore` is the returned code\'s share of tests passed',
    before: ['airetry-color-game-swept', 'code-fixer'],
    after: ['airetry-model-calls', 'code-fixer-model-calls'],
  },
  'grove-cancel-waits': {
    since: '2026-11-28',
    changes: 'every workflow: a cancellation waits for the model calls in flight to end (aborted or answered) before the run writes its final counts, so a call answered after the cancellation was asked is counted',
    before: ['agent-mcts', 'generate'],
    after: ['agent-mcts-cancelled'],
  },
  'grove-cancel-wins': {
    since: '2026-11-28',
    changes: 'every workflow: a run whose cancellation was requested ends `cancelled` even when the step in flight failed first (a model call that timed out before its next heartbeat brought the cancellation), not `failed` with that step\'s error',
    before: ['agent-mcts-cancelled'],
    after: ['agent-mcts-cancel-wins'],
  },
} as const satisfies Record<string, PatchRecord>;

/** What the registry says of one patch. */
export interface PatchRecord {
  /** The day the change came: runs started before it take the old branch. */
  since: string;
  /** What the new branch does differently. */
  changes: string;
  /** Recorded histories (test/fixtures/histories/<name>.json) from before the change: they replay the old branch. */
  before: readonly string[];
  /** Recorded histories that took the new branch (their history holds the patch marker). */
  after: readonly string[];
}

export type PatchId = keyof typeof PATCHES;

/**
 * A registered patch id, for `patched()`: the compiler refuses an id the registry does not list.
 *
 * @example
 * export const RETRY_WINDOW = patchId('grove-retry-window');
 */
export function patchId<const T extends PatchId>(id: T): T {
  return id;
}
