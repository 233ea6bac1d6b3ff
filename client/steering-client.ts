import { WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { userInfo } from 'node:os';
import { parseInput } from '../core/schemas/parse-input';
import type { SendResult, SessionResult } from '../core/session/session-result';
import type { SessionInput } from '../core/session/session-input';
import {
  ApprovalRequestSchema,
  CloseRequestSchema,
  FeedbackRequestSchema,
  SendRequestSchema,
  SessionRewindRequestSchema,
  StopRequestSchema,
  TreeRewindRequestSchema,
  type HumanAction,
} from '../core/schemas/steering';
import type { RewindRecord, SessionTreeView } from '../core/session/message-tree';
import type { ApprovalOutcome, PendingApproval } from '../core/steering/approvals';
import type { Message } from '../core/schemas/messages';
import { GroveKind, GroveStatus } from '../workflows/search-attributes';
import { RUN_KINDS } from './run-kinds';

/** Arguments of a steering update without `by`: the client fills it in from its actor. */
type WithoutBy<T> = Omit<T, 'by'> & { by?: string };

/**
 * A steering update the run refused, or one that could not reach a running run. `type` is the
 * failure type: `GroveInvalidInput` (a bad field, named in the message), `GroveUpdateRejected`
 * (a valid request that cannot apply now: a bad `n`, no pending call...), `GroveRunFinished`,
 * `GroveRunNotFound`.
 */
export class SteeringError extends Error {
  override name = 'GroveSteeringError';
  constructor(
    message: string,
    readonly type: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The object without its undefined fields (a strict schema counts a present `undefined` as an unknown key). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Who acts, when the caller does not say: `GROVE_ACTOR`, else the OS user name. */
export function defaultActor(): string {
  if (process.env.GROVE_ACTOR) return process.env.GROVE_ACTOR;
  try {
    return userInfo().username || 'user';
  } catch {
    return 'user';
  }
}

/**
 * Steering of running runs, for any Temporal client: the updates grove's workflows accept
 * (`rewind`, `feedback`, `approve`, `stop`; `send` and `close` on sessions), each checked here
 * with the same zod schema the run's validator uses, so a bad field fails before any request —
 * and refusals come back as a `SteeringError` saying why.
 *
 * @example
 * const steer = new Steering(client, 'ana');
 * await steer.rewind('agent-1a2b', { nodeId: 4, feedback: 'Use the multiply tool for every step.' });
 */
export class Steering {
  constructor(
    readonly client: Client,
    readonly actor: string = defaultActor(),
  ) {}

  /**
   * Rewinds a run. A session: `{ n | messageId, content }` replaces that assistant message and
   * prunes what followed. An airetry or agent run: `{ nodeId, content?, feedback? }` prunes what
   * grew from the node and re-expands from it (or from its replacement).
   */
  rewind(workflowId: string, request: WithoutBy<{ n?: number; messageId?: number; nodeId?: number; content?: string; feedback?: string }>): Promise<unknown> {
    const args = defined({ ...request, by: request.by ?? this.actor });
    const schema = args.nodeId !== undefined ? TreeRewindRequestSchema : SessionRewindRequestSchema;
    return this.update(workflowId, 'rewind', parseInput(schema, args, 'rewind request'));
  }

  /** Feedback ("this is wrong because…") on a node or message, seen by the run's next expansion. */
  feedback(workflowId: string, request: WithoutBy<{ nodeId?: number; text: string }>): Promise<unknown> {
    return this.update(workflowId, 'feedback', parseInput(FeedbackRequestSchema, defined({ ...request, by: request.by ?? this.actor }), 'feedback request'));
  }

  /** Approves (or, with `decision: 'reject'`, refuses) a tool call waiting for approval. */
  approve(workflowId: string, request: WithoutBy<{ callId?: string; decision?: 'approve' | 'reject'; reason?: string }> = {}): Promise<ApprovalOutcome & { callId: string }> {
    const args = parseInput(ApprovalRequestSchema, defined({ ...request, by: request.by ?? this.actor }), 'approve request');
    return this.update(workflowId, 'approve', args) as Promise<ApprovalOutcome & { callId: string }>;
  }

  /** Stops a run (a session's turn in progress) with the best answer so far. */
  stop(workflowId: string, request: WithoutBy<{ reason?: string }> = {}): Promise<unknown> {
    return this.update(workflowId, 'stop', parseInput(StopRequestSchema, defined({ ...request, by: request.by ?? this.actor }), 'stop request'));
  }

  /** The tool calls of a run waiting for a decision. */
  pending(workflowId: string): Promise<PendingApproval[]> {
    return this.client.workflow.getHandle(workflowId).query<PendingApproval[]>('pending');
  }

  /** The human actions a run applied: who, when, what. */
  actions(workflowId: string): Promise<HumanAction[]> {
    return this.client.workflow.getHandle(workflowId).query<HumanAction[]>('actions');
  }

  /** Sends an update, turning Temporal's errors into ones that say what to do. */
  async update(workflowId: string, name: string, args: unknown): Promise<unknown> {
    try {
      return await this.client.workflow.getHandle(workflowId).executeUpdate(name, { args: [args] });
    } catch (err) {
      throw await steeringError(this.client, workflowId, name, err);
    }
  }
}

/**
 * What went wrong with an update, as a `SteeringError` that names the reason: the run's own
 * refusal, or — when Temporal found no running run — whether the run finished or never existed.
 */
export async function steeringError(client: Client, workflowId: string, name: string, err: unknown): Promise<Error> {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    return new SteeringError(err.cause.message, err.cause.type ?? 'GroveUpdateRejected', { cause: err });
  }
  if (!(err instanceof WorkflowNotFoundError)) return err instanceof Error ? err : new Error(String(err));
  const described = await client.workflow
    .getHandle(workflowId)
    .describe()
    .then((d) => ({ status: d.status.name, type: d.type }))
    .catch(() => undefined);
  const status = described?.status;
  if (status === undefined) return new SteeringError(`there is no run ${workflowId}`, 'GroveRunNotFound', { cause: err });
  // What applies to a finished run depends on what was asked: nothing is left to stop or approve; a rewind or feedback can go to a fork.
  const instead =
    name === 'stop' ? `there is nothing to stop (\`grove result ${workflowId}\` prints how it ended)`
    : name === 'approve' ? `nothing waits for approval (\`grove actions ${workflowId}\` shows what was decided)`
    : described?.type === 'session' ? `${name} needs a running session; a closed one cannot be continued (\`grove session send NEW_ID …\` starts another)`
    : `${name} needs a running run (\`grove fork ${workflowId} --node N\` continues its tree from a node)`;
  return new SteeringError(
    `run ${workflowId} has finished (${status.toLowerCase()}): ${instead}`,
    'GroveRunFinished',
    { cause: err },
  );
}

export interface SessionOpenOptions {
  taskQueue: string;
  /** The session's input, used when the first `send` starts it (ignored once it runs). */
  input?: SessionInput;
  /** Who sends and steers (default `GROVE_ACTOR` or the OS user). */
  by?: string;
}

/**
 * A durable conversation seen from a backend: `send` starts the session on first use
 * (update-with-start, so a message is never lost between "start" and "send") and returns the
 * assistant's reply; the rest steers and reads it.
 *
 * @example
 * const chat = grove.session('chat-ana', { input: { model: 'gpt-4o-mini', tools: ['save_note'] } });
 * const { reply } = await chat.send('What is the capital of France?');
 * await chat.rewind({ n: 1, content: 'Paris.' });
 * const { conversation } = await chat.close();
 */
export class GroveSession {
  private readonly steering: Steering;

  constructor(
    readonly client: Client,
    readonly workflowId: string,
    private readonly opts: SessionOpenOptions,
  ) {
    this.steering = new Steering(client, opts.by ?? defaultActor());
    if (opts.input !== undefined) parseInput(RUN_KINDS.session.schema, opts.input, 'session input');
  }

  /** Sends a message (starting the session if it does not run yet) and waits for the reply. */
  async send(content: string | Extract<Message, { role: 'user' }>['content'], opts: { by?: string } = {}): Promise<SendResult> {
    const args = parseInput(SendRequestSchema, { content, by: opts.by ?? this.steering.actor }, 'send request');
    const input = this.opts.input ?? {};
    const start = new WithStartWorkflowOperation('session', {
      workflowId: this.workflowId,
      taskQueue: this.opts.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      staticSummary: RUN_KINDS.session.summary(parseInput(RUN_KINDS.session.schema, input, 'session input')),
      typedSearchAttributes: [
        { key: GroveKind, value: 'session' },
        { key: GroveStatus, value: 'running' },
      ],
    });
    try {
      return (await this.client.workflow.executeUpdateWithStart('send', { args: [args], startWorkflowOperation: start })) as SendResult;
    } catch (err) {
      throw await steeringError(this.client, this.workflowId, 'send', err);
    }
  }

  /** Replaces the nth assistant message (`n`, or `messageId` from the tree) with `content`, pruning what followed. */
  rewind(request: WithoutBy<{ n?: number; messageId?: number; content: string }>): Promise<RewindRecord> {
    return this.steering.rewind(this.workflowId, request) as Promise<RewindRecord>;
  }

  feedback(request: WithoutBy<{ nodeId?: number; text: string }>): Promise<{ messageId?: number; queued: boolean }> {
    return this.steering.feedback(this.workflowId, request) as Promise<{ messageId?: number; queued: boolean }>;
  }

  approve(request: WithoutBy<{ callId?: string; decision?: 'approve' | 'reject'; reason?: string }> = {}) {
    return this.steering.approve(this.workflowId, request);
  }

  stop(request: WithoutBy<{ reason?: string }> = {}): Promise<unknown> {
    return this.steering.stop(this.workflowId, request);
  }

  /** Ends the session; resolves with its transcript (the workflow's result). */
  async close(request: WithoutBy<{ reason?: string }> = {}): Promise<SessionResult> {
    const args = parseInput(CloseRequestSchema, defined({ ...request, by: request.by ?? this.steering.actor }), 'close request');
    await this.steering.update(this.workflowId, 'close', args);
    return (await this.handle().result()) as SessionResult;
  }

  conversation(): Promise<Message[]> {
    return this.handle().query<Message[]>('conversation');
  }

  /** The message tree, abandoned branches included (the documented `tree` query shape). */
  tree(): Promise<SessionTreeView> {
    return this.handle().query<SessionTreeView>('tree');
  }

  pending(): Promise<PendingApproval[]> {
    return this.steering.pending(this.workflowId);
  }

  actions(): Promise<HumanAction[]> {
    return this.steering.actions(this.workflowId);
  }

  private handle() {
    return this.client.workflow.getHandle(this.workflowId);
  }
}
