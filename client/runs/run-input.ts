import type { Client, WorkflowHandle } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';

/**
 * A run's input, from the first event of its history (a run continued as new was started with
 * the same input), decoded with the client's data converter.
 *
 * @example
 * const input = await runInput(client, client.workflow.getHandle('airetry-1a2b'));
 */
export async function runInput(client: Client, run: WorkflowHandle): Promise<Record<string, unknown>> {
  const history = await run.fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const [input] = await decodeArrayFromPayloads(client.options.loadedDataConverter, started?.input?.payloads ?? []);
  if (input === null || typeof input !== 'object') throw new Error(`cannot read the input of ${run.workflowId} from its history`);
  return input as Record<string, unknown>;
}
