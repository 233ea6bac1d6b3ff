import { RUN_KINDS } from '../../../client/run-kinds';
import { DEFAULT_POLICY, policyViolations } from '../../../core/policy/operator-policy';
import { canonicalKind, kindClause, RUN_KIND_NAMES } from '../../../core/runs/run-kind-names';

test('the client starts every kind by its one name', () => {
  expect(Object.keys(RUN_KINDS).sort()).toEqual([...RUN_KIND_NAMES].sort());
});

test('a former GroveKind is read as its kind; other kinds pass unchanged', () => {
  expect(canonicalKind('codeFixer')).toBe('code-fixer');
  expect(canonicalKind('code-fixer')).toBe('code-fixer');
  expect(canonicalKind('agent:mcts')).toBe('agent:mcts');
  expect(canonicalKind('constructor')).toBe('constructor'); // no prototype lookups
});

test('a kind filter finds the current and the former name, and every variant of a kind', () => {
  expect(kindClause('code-fixer')).toBe('(GroveKind IN ("code-fixer", "codeFixer") OR GroveKind STARTS_WITH "code-fixer:")');
  expect(kindClause('codeFixer')).toBe(kindClause('code-fixer'));
  expect(kindClause('agent')).toBe('(GroveKind = "agent" OR GroveKind STARTS_WITH "agent:")');
  expect(kindClause('agent:mcts')).toBe('GroveKind = "agent:mcts"');
});

test('the operator policy holds code-fixer runs to their ceilings under either name', () => {
  const input = { numRounds: 5_000, config: { maxCalls: 5_000, nSamples: 64 } };
  const expected = [
    'numRounds: 5000 is above the operator limit of 1000 (maxCalls)',
    'config.maxCalls: 5000 is above the operator limit of 1000 (maxCalls)',
    'config.nSamples: 64 is above the operator limit of 16 (maxFanOut)',
  ];
  expect(policyViolations('code-fixer', input, DEFAULT_POLICY, 'grove')).toEqual(expected);
  expect(policyViolations('codeFixer', input, DEFAULT_POLICY, 'grove')).toEqual(expected);
});
