import type { GroveClient } from '../grove-client';

/**
 * Says so when no worker polls the task queue a run was started on: otherwise the run waits
 * silently, which looks like a hang.
 */
export async function warnIfNoWorker(grove: GroveClient, warn: (line: string) => void): Promise<void> {
  try {
    const response = await grove.temporal.workflowService.describeTaskQueue({
      namespace: grove.temporal.options.namespace,
      taskQueue: { name: grove.taskQueue },
      taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
    });
    if ((response.pollers ?? []).length === 0) {
      warn(`grove: no worker is polling task queue "${grove.taskQueue}" yet; the run waits until one does (start one with \`grove dev\` or \`grove worker\`)`);
    }
  } catch {
    // Describing a task queue is a convenience; never fail a run over it.
  }
}
