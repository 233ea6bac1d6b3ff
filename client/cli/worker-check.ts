import type { GroveClient } from '../grove-client';

/**
 * Says so when no worker polls the task queue a run was started on: otherwise the run waits
 * silently, which looks like a hang.
 */
export async function warnIfNoWorker(grove: GroveClient, warn: (line: string) => void): Promise<void> {
  if (!(await grove.hasWorker())) {
    warn(`grove: no worker is polling task queue "${grove.taskQueue}" yet; the run waits until one does (start one with \`grove dev\` or \`grove worker\`)`);
  }
}
