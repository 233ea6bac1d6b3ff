import type { Client, WorkflowHandle } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { ConversationDelta } from '../core/conversation/delta';
import type { Message } from '../core/schemas/messages';
import { parseInput } from '../core/schemas/parse-input';
import { SampleTree } from '../core/tree/sample-tree';
import { GroveKind, GroveStatus } from '../workflows/search-attributes';
import { RUN_KINDS, type RunInput, type RunKindName, type RunResult } from './run-kinds';
import { connectClient, LOCAL_TEMPORAL } from './temporal-server/connect';
import { connectionSettingsFromEnv, type TemporalConnectionSettings } from './temporal-server/connection-options';
import { ensureSearchAttributes } from './temporal-server/search-attributes';

export interface StartOptions {
  /** Defaults to `<kind>-<random>`; reuse an id to make a start idempotent. */
  workflowId?: string;
  taskQueue?: string;
}

/**
 * The typed client for backend services: validates a run's input before anything starts
 * (a bad field is named in the error, and no workflow is created), starts ready-made grove
 * workflows with a readable summary for the Temporal UI, and returns their results.
 *
 * @example
 * const grove = await GroveClient.connect();               // TEMPORAL_ADDRESS or a local dev server
 * const { output } = await grove.run('generate', { prompt: 'Say hi!' });
 */
export class GroveClient {
  constructor(
    readonly temporal: Client,
    readonly taskQueue = 'grove',
  ) {}

  static async connect(opts: { settings?: TemporalConnectionSettings; taskQueue?: string } = {}): Promise<GroveClient> {
    const settings = opts.settings ?? connectionSettingsFromEnv() ?? LOCAL_TEMPORAL;
    return new GroveClient(await connectClient(settings), opts.taskQueue ?? process.env.GROVE_TASK_QUEUE ?? 'grove');
  }

  /** Validates `input` and starts the run; resolves once the server accepted it. */
  async start<K extends RunKindName>(kind: K, input: RunInput<K>, opts: StartOptions = {}): Promise<WorkflowHandle> {
    const spec = RUN_KINDS[kind];
    const parsed = parseInput(spec.schema, input, `${kind} input`);
    await ensureSearchAttributes(this.temporal);
    return this.temporal.workflow.start(spec.workflowType, {
      taskQueue: opts.taskQueue ?? this.taskQueue,
      workflowId: opts.workflowId ?? `${kind}-${randomUUID().slice(0, 8)}`,
      args: [input],
      staticSummary: spec.summary(parsed as never),
      typedSearchAttributes: [
        { key: GroveKind, value: kind },
        { key: GroveStatus, value: 'running' },
      ],
    });
  }

  /** Starts the run and waits for its result. */
  async run<K extends RunKindName>(kind: K, input: RunInput<K>, opts: StartOptions = {}): Promise<RunResult<K> & { workflowId: string }> {
    const handle = await this.start(kind, input, opts);
    const result = (await handle.result()) as RunResult<K>;
    return { ...result, workflowId: handle.workflowId };
  }

  /**
   * The sample tree of a run, running or finished: from its result when it has completed
   * (no worker needed), else by query (a worker must be up).
   */
  async tree(workflowId: string): Promise<{ tree: SampleTree<ConversationDelta>; activeSampleId?: number; status: string }> {
    const handle = this.handle(workflowId);
    const { status } = await handle.describe();
    if (status.name === 'COMPLETED') {
      const result = (await handle.result()) as { tree?: unknown; activeSampleId?: number };
      if (result.tree === undefined) throw new Error(`run ${workflowId} has no sample tree (it is not a search or airetry run)`);
      return { tree: SampleTree.fromJSON<ConversationDelta>(result.tree), activeSampleId: result.activeSampleId, status: status.name };
    }
    const [tree, progress] = await Promise.all([handle.query<unknown>('tree'), handle.query<{ activeSampleId?: number }>('progress')]);
    return { tree: SampleTree.fromJSON<ConversationDelta>(tree), activeSampleId: progress.activeSampleId, status: status.name };
  }

  /** The active (winning) conversation of a run, running or finished. */
  async conversation(workflowId: string): Promise<{ conversation: Message[]; status: string }> {
    const handle = this.handle(workflowId);
    const { status } = await handle.describe();
    if (status.name === 'COMPLETED') {
      const result = (await handle.result()) as { conversation?: Message[] };
      return { conversation: result.conversation ?? [], status: status.name };
    }
    return { conversation: await handle.query<Message[]>('conversation'), status: status.name };
  }

  handle(workflowId: string): WorkflowHandle {
    return this.temporal.workflow.getHandle(workflowId);
  }

  async close(): Promise<void> {
    await this.temporal.connection.close();
  }
}
