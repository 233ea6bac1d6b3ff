import { ApplicationFailure, TemporalFailure } from '@temporalio/client';

/**
 * One line for a failed command: the first application failure of a workflow failure
 * ("model "x" was not found at ...: check the model name") rather than "Workflow execution failed".
 * A multi-line message (a provider's validation error, whose cause is on its last line) is kept
 * whole, its lines joined with " | ".
 */
export function describeFailure(err: unknown): string {
  // An id that names no run: say which, and where to look (Temporal's words are "workflow not found for ID").
  if (err instanceof Error && err.name === 'WorkflowNotFoundError') {
    const id = (err as Error & { workflowId?: string }).workflowId;
    return `there is no run ${id ?? 'with that id'} on this Temporal server and namespace (\`grove list\` shows the runs; \`grove help connect\` says which server grove uses)`;
  }
  let message = err instanceof Error ? err.message : String(err);
  for (let f: unknown = err; f instanceof Error; f = f.cause) {
    if (f instanceof ApplicationFailure) {
      message = f.message;
      break;
    }
    if (f instanceof TemporalFailure || f.name === 'WorkflowFailedError') message = f.message;
  }
  return message.split('\n').map((l) => l.trim()).filter(Boolean).join(' | ');
}
