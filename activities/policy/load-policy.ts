import { readFileSync } from 'node:fs';
import { DEFAULT_POLICY, OperatorPolicySchema, type OperatorPolicy, type OperatorPolicyInput } from '../../core/policy/operator-policy';
import { parseInput } from '../../core/schemas/parse-input';

export class PolicyConfigError extends Error {
  override name = 'PolicyConfigError';
}

/**
 * The operator policy: the given one, else `GROVE_POLICY_FILE` (JSON, e.g.
 * `{ "maxCalls": 200, "maxFanOut": 8, "taskQueues": ["grove-tools"] }`), else the defaults.
 * A file that cannot be read or holds an invalid field fails here, naming it.
 *
 * @example
 * const policy = loadPolicy(); // DEFAULT_POLICY unless GROVE_POLICY_FILE is set
 */
export function loadPolicy(given?: OperatorPolicyInput, env: NodeJS.ProcessEnv = process.env): OperatorPolicy {
  if (given) return parseInput(OperatorPolicySchema, given, 'operator policy');
  const file = env.GROVE_POLICY_FILE;
  if (!file) return DEFAULT_POLICY;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new PolicyConfigError(`GROVE_POLICY_FILE=${file} cannot be read as JSON: ${(err as Error).message}`);
  }
  try {
    return parseInput(OperatorPolicySchema, raw, `operator policy in ${file}`);
  } catch (err) {
    throw new PolicyConfigError((err as Error).message);
  }
}

/**
 * `grovePolicy`: the worker's operator policy, read by each run once at its start (a local
 * activity, so it is recorded in the run's history and replays identically).
 */
export function createPolicyActivities(policy: OperatorPolicy) {
  return {
    async grovePolicy(): Promise<OperatorPolicy> {
      return policy;
    },
  };
}
