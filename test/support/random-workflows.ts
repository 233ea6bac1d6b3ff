import { proxyActivities, uuid4 } from '@temporalio/workflow';
import type { EvaluatorActivities } from '../../activities/evaluators/evaluator-activities';
import type { ToolActivities } from '../../activities/tools/tool-activities';

const { groveDescribeTools } = proxyActivities<ToolActivities>({ startToCloseTimeout: '30s' });
const { groveDescribeEvaluator } = proxyActivities<EvaluatorActivities>({ startToCloseTimeout: '30s' });

/**
 * A workflow of a user's own (test-only) whose decisions hang on the workflow's default random
 * stream — `Math.random()` and `uuid4()` — as a user's workflow beside grove's may: which
 * activity each round schedules depends on the draws. Tracing that drew its span ids from that
 * stream would change the draws, and so the decisions, between a run and its replay.
 */
export async function randomDecisions(rounds: number): Promise<string[]> {
  const picks: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const id = uuid4();
    if (Math.random() < 0.5) {
      await groveDescribeTools({ names: [] });
      picks.push(`tools ${id.slice(0, 8)}`);
    } else {
      await groveDescribeEvaluator({ name: 'multiplication-checker' });
      picks.push(`evaluator ${id.slice(0, 8)}`);
    }
  }
  return picks;
}
