/**
 * The one name of each kind of run. The client (`grove.start('code-fixer', …)`), the CLI
 * (`grove run code-fixer`, `grove list --kind code-fixer`), the `GroveKind` search attribute a
 * run writes, the operator policy, the viewer, the published schemas (`code-fixer.input.json`)
 * and the docs all use these words. (The Temporal workflow type is a separate thing: the name of
 * the workflow function a Temporal client starts, e.g. `codeFixer`; see `RUN_KINDS`.) A search
 * agent's `GroveKind` adds its algorithm: `agent:mcts`.
 */
export const RUN_KIND_NAMES = ['generate', 'airetry', 'agent', 'code-fixer', 'session'] as const;
export type RunKindName = (typeof RUN_KIND_NAMES)[number];

/**
 * Names that runs started before every kind had one name wrote into `GroveKind` (code-fixer runs
 * wrote their workflow type). Readers — `grove list`, the viewer, the policy — take them as the
 * kind they meant, so those runs still show.
 */
export const FORMER_KIND_NAMES: Readonly<Record<string, RunKindName>> = { codeFixer: 'code-fixer' };

/**
 * The name a `GroveKind` (or a kind someone typed) stands for: a former name becomes the current
 * one; anything else is returned as it is.
 *
 * @example
 * canonicalKind('codeFixer'); // 'code-fixer'
 * canonicalKind('agent:mcts'); // 'agent:mcts'
 */
export function canonicalKind(kind: string): string {
  return Object.prototype.hasOwnProperty.call(FORMER_KIND_NAMES, kind) ? FORMER_KIND_NAMES[kind] : kind;
}

/**
 * The visibility-query clause that finds runs of `kind`: its `GroveKind` under the current name
 * or a former one, and — for a kind without `:` — every variant of it (`agent` finds
 * `agent:mcts`, `agent:beam`, …). `kind` must already be a safe word (callers check it).
 *
 * @example
 * kindClause('code-fixer'); // '(GroveKind IN ("code-fixer", "codeFixer") OR GroveKind STARTS_WITH "code-fixer:")'
 * kindClause('agent:mcts'); // 'GroveKind = "agent:mcts"'
 */
export function kindClause(kind: string): string {
  const name = canonicalKind(kind);
  if (name.includes(':')) return `GroveKind = ${JSON.stringify(name)}`;
  const names = [name, ...Object.keys(FORMER_KIND_NAMES).filter((former) => FORMER_KIND_NAMES[former] === name)];
  const exact = names.length === 1 ? `GroveKind = ${JSON.stringify(name)}` : `GroveKind IN (${names.map((n) => JSON.stringify(n)).join(', ')})`;
  return `(${exact} OR GroveKind STARTS_WITH ${JSON.stringify(`${name}:`)})`;
}
