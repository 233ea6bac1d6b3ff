import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '../../../core';
import * as failures from '../../../core/failures';

const GROUPS = Object.entries(failures).filter(([name]) => !name.startsWith('NON_RETRYABLE')) as [string, Record<string, string>][];
const section = (() => {
  const doc = readFileSync(join(__dirname, '../../../docs/durability.md'), 'utf8');
  return doc.slice(doc.indexOf('## Failure types'), doc.indexOf('\n## ', doc.indexOf('## Failure types') + 1));
})();

test('every failure type of the catalogue is documented in its group, and exported from grove-agents/core', () => {
  for (const [group, types] of GROUPS) {
    expect(core).toHaveProperty(group, types);
    for (const type of Object.values(types)) {
      expect(section).toContain(`| \`${type}\` |`);
    }
    expect(section).toContain(`| \`${group}\` |`);
  }
});

test('the non-retryable lists name only catalogue types, and the documented table agrees on which are not retried', () => {
  const all = new Set(GROUPS.flatMap(([, types]) => Object.values(types)));
  for (const type of failures.NON_RETRYABLE_AGENT_FAILURES) {
    expect(all.has(type)).toBe(true);
    expect(section).toMatch(new RegExp(`\\| \`${type}\` \\| no \\|`));
  }
  expect(failures.NON_RETRYABLE_AGENT_FAILURES).toEqual(expect.arrayContaining([...failures.NON_RETRYABLE_LLM_FAILURES, ...failures.NON_RETRYABLE_EVALUATOR_FAILURES]));
  // Retried failures must stay retryable: a rate limit or a network error is not the run's fault.
  for (const type of [failures.LlmFailure.RateLimited, failures.LlmFailure.Network, failures.LlmFailure.Timeout, failures.McpFailure.Unavailable]) {
    expect(failures.NON_RETRYABLE_AGENT_FAILURES).not.toContain(type);
  }
});
