/**
 * What each of grove's activity types does, in a user's words. Status lines, failures and the
 * viewer name a step by what it is ("model call"), not by its function name ("llmChat"); an
 * activity type grove does not know (a user's own) is shown as it is called.
 */
export type ActivityKind = 'model call' | 'embedding' | 'tool' | 'evaluation' | 'code run' | 'store read' | 'setup';

const KINDS: Record<string, ActivityKind> = {
  llmChat: 'model call',
  llmEmbed: 'embedding',
  groveRunTool: 'tool',
  groveActiveTools: 'tool',
  groveDescribeTools: 'setup',
  groveEvaluate: 'evaluation',
  groveDescribeEvaluator: 'setup',
  groveExecCode: 'code run',
  groveResolvePath: 'store read',
  grovePolicy: 'setup',
  groveResumeOverrides: 'setup',
};

/**
 * The kind of an activity type: `'model call'` for `llmChat`, the type itself for one grove
 * does not know.
 *
 * @example
 * activityKind('groveRunTool'); // 'tool'
 * activityKind('chargeCard');   // 'chargeCard'
 */
export function activityKind(activityType: string): string {
  return Object.prototype.hasOwnProperty.call(KINDS, activityType) ? KINDS[activityType] : activityType;
}

/** Whether an activity type runs user tools (its attempts are capped at 3, see `toolPort`). */
export function isToolActivity(activityType: string): boolean {
  return activityType === 'groveRunTool' || activityType === 'groveActiveTools' || activityType === 'groveDescribeTools';
}
