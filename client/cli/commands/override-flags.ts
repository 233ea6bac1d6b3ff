import type { RunOverrides } from '../../../core/runs/run-overrides';
import { numberOption, UsageError } from '../usage-error';

/** The options `grove resume` and `grove fork` take to change a run's settings from then on. */
export const OVERRIDE_FLAGS = {
  model: { type: 'string' },
  'evaluator-model': { type: 'string' },
  budget: { type: 'string' },
  'max-retries': { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-cost': { type: 'string' },
  'max-wall-ms': { type: 'string' },
} as const;

export const OVERRIDE_HELP = `  Changed settings (for what the run does from then on): --model NAME, --evaluator-model NAME
  (agent), --budget CALLS (model calls; airetry: samples), --max-retries N (airetry),
  --max-tokens N, --max-cost USD, --max-wall-ms MS (agent).`;

/**
 * Overrides from `OVERRIDE_FLAGS` values: a number that is not one, or not a positive integer
 * where one is needed, is a usage error naming the option.
 *
 * @example
 * overridesFromFlags('resume', { model: 'm', budget: '80' }); // { model: 'm', budget: { maxCalls: 80 } }
 */
export function overridesFromFlags(command: string, values: Record<string, unknown>): RunOverrides {
  const int = (name: string, min: number) => {
    const n = numberOption(command, name, values[name] as string | undefined);
    if (n !== undefined && (!Number.isInteger(n) || n < min)) throw new UsageError(`${command}: --${name} must be an integer >= ${min}, got "${values[name]}"`);
    return n;
  };
  const positive = (name: string) => {
    const n = numberOption(command, name, values[name] as string | undefined);
    if (n !== undefined && !(n > 0)) throw new UsageError(`${command}: --${name} must be > 0, got "${values[name]}"`);
    return n;
  };
  const budget = Object.fromEntries(
    Object.entries({
      maxCalls: int('budget', 1),
      maxRetries: int('max-retries', 0),
      maxTokens: int('max-tokens', 1),
      maxCostUsd: positive('max-cost'),
      maxWallMs: positive('max-wall-ms'),
    }).filter(([, v]) => v !== undefined),
  );
  const overrides: RunOverrides = {};
  if (values.model !== undefined) overrides.model = values.model as string;
  if (values['evaluator-model'] !== undefined) overrides.evaluatorModel = values['evaluator-model'] as string;
  if (Object.keys(budget).length > 0) overrides.budget = budget;
  return overrides;
}
