import { hostname } from 'node:os';
import { SimplePlugin } from '@temporalio/plugin';
import type { ActivityInboundCallsInterceptor, ReplayWorkerOptions, Worker, WorkerInterceptors, WorkerOptions } from '@temporalio/worker';
import type { EvaluatorDefinition } from '../activities/evaluators';
import { createGroveActivities, groveFleetState, groveTools } from '../activities/grove-activities';
import { McpServers } from '../activities/mcp/mcp-servers';
import type { McpServersInput } from '../activities/mcp/mcp-config';
import type { FleetState } from '../activities/registry/worker-registry';
import { identityWithRegistry } from '../core/fleet/registry';
import { runInFleet, type FleetOptions } from './fleet';
import { activityContext } from '../activities/activity-context';
import { PAYLOAD_TOO_LARGE, payloadProblem } from '../core/payload-limits';
import { ApplicationFailure } from '@temporalio/common';
import { GroveError } from '../core/errors';
import { llmConfigFromEnv, type LlmConfig } from '../activities/llm/llm-config';
import type { MessageStore } from '../activities/store/message-store';
import { openStore, storeSettingsFromEnv, type StoreSettings } from '../activities/store/open-store';
import { toolRegistry, type AnyToolDefinition } from '../activities/tools';
import { loadPolicy } from '../activities/policy/load-policy';
import { redactError, secretRedactor } from '../activities/secrets/secret-redactor';
import type { OperatorPolicyInput } from '../core/policy/operator-policy';
import { PREBUILT_BUNDLE, PREBUILT_TRACED_BUNDLE, prebuiltMatches, WORKFLOWS_PATH } from './workflow-bundle';
import type { GroveTelemetry } from '../activities/telemetry/grove-telemetry';
import { groveTelemetry } from '../activities/telemetry/telemetry-registry';
import { telemetryOptions, workerTelemetry, type WorkerTelemetry } from './worker-telemetry';

export interface GrovePluginOptions {
  /** The message store, or its URL / settings; from the environment when omitted (`GROVE_STORE_URL`). */
  store?: MessageStore | StoreSettings | string;
  /** Where model calls go: the environment's settings (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `GROVE_MODEL`), with these fields overriding them. */
  llm?: Partial<LlmConfig>;
  /** Tools the search agents may call by name. */
  tools?: AnyToolDefinition[];
  /**
   * MCP servers whose tools this worker serves, by server name: `{ command, args, env }` for a
   * server the worker starts (stdio), `{ url, headers }` for one it connects to (streamable
   * HTTP); each may limit its tools (`tools: [...]`) and set `timeoutMs`. Their tools are named
   * `<server>__<tool>`. Or an `McpServers` of your own (you then close it). See docs/mcp.md.
   */
  mcpServers?: McpServersInput | McpServers;
  /** Custom evaluators the search agents may use by name. */
  evaluators?: EvaluatorDefinition[];
  /** What one run may do (spend, fan-out, delays, task queues); `GROVE_POLICY_FILE` or safe defaults when omitted. */
  policy?: OperatorPolicyInput;
  /**
   * Traces and metrics by OpenTelemetry (docs/observability.md): from the standard `OTEL_*`
   * variables when omitted (off unless an OTLP endpoint is set), `false` for none.
   */
  telemetry?: GroveTelemetry | false;
  /** How the worker reports other workers on its task queue whose tools differ (default: its logger). */
  fleet?: FleetOptions;
  /**
   * Whether the worker runs grove's workflows (default true). `false` makes a tool worker: it
   * serves grove's activities — your tools and evaluators among them — and runs no workflows.
   */
  workflows?: boolean;
}

/**
 * The longest a worker holds back an activity's heartbeats (Temporal's default: 0.8 × the
 * heartbeat timeout, up to 60 s). A heartbeat's answer is how a running model call learns that
 * its run was cancelled, so with the default a cancelled run's stalled call went on for up to
 * 24 s, and one with a shorter time limit of its own failed first. 2 s: a cancellation reaches a
 * call within about 2 s, at one small request per call in flight every 2 s. A worker's own
 * `maxHeartbeatThrottleInterval` wins.
 */
const HEARTBEAT_THROTTLE_MS = 2_000;

/**
 * grove as a Temporal plugin (`@temporalio/plugin`), for a worker fleet of your own: added to
 * `Worker.create({ plugins })` it registers grove's activities (model calls, the message store,
 * your tools and evaluators) and — unless you bring your own workflows — grove's workflows, from
 * the bundle prebuilt with the package. Bring your own with `workflowsPath`: a file that
 * `export * from 'grove-agents/workflows'` beside your workflows, bundled by the worker.
 * The store is checked when the worker starts running: a store it cannot reach stops it at once,
 * in one line naming the (redacted) URL.
 *
 * Search attributes (`GroveKind`, `GroveStatus`, ...) are registered by `GroveClient.start` and
 * `grove setup` (a worker's plugin hook cannot call the server).
 *
 * In a fleet, the worker's identity carries its registry's fingerprint (its tools and evaluators
 * by name and definition), it also polls `<taskQueue>@<fingerprint>` — where runs bound to its
 * registry send their tools and evaluators — and it reports other workers on its queue whose
 * registries differ (see docs/operations.md, "Running a fleet").
 *
 * @example
 * import { Worker, NativeConnection } from '@temporalio/worker';
 * import { GrovePlugin } from 'grove-agents/worker';
 * const worker = await Worker.create({
 *   connection: await NativeConnection.connect({ address: 'localhost:7233' }),
 *   taskQueue: 'grove',
 *   plugins: [new GrovePlugin({ tools: [myTool] })],
 * });
 * await worker.run();
 */
export class GrovePlugin extends SimplePlugin {
  readonly store: MessageStore;
  readonly llm: LlmConfig;
  /** The worker's MCP servers (none configured: undefined). */
  readonly mcp: McpServers | undefined;
  /** This worker's registry (its MCP servers' tools in it once `ready()`), and whether it routes (once it runs). */
  readonly fleet: FleetState;
  /**
   * Starts the MCP servers and lists their tools, checking that no two of the worker's tools
   * share a name; the worker's registry then names them. Call it before `Worker.create` when
   * the plugin has MCP servers (`createGroveWorker` does): the worker's identity carries its
   * registry, so a worker whose servers are not listed yet is refused, in one line saying so.
   *
   * @example
   * const plugin = new GrovePlugin({ mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } });
   * await plugin.ready();
   */
  readonly ready: () => Promise<void>;
  private readonly fleetOptions: FleetOptions;
  private readonly groveActivities: ReturnType<typeof createGroveActivities>;
  private readonly activityInterceptors: WorkerInterceptors;
  private readonly runsWorkflows: boolean;
  /** What this worker adds to export telemetry; undefined when it exports none. */
  private readonly observed?: WorkerTelemetry;

  constructor(opts: GrovePluginOptions = {}) {
    const store = resolveStore(opts.store);
    // A store the plugin opened from a URL is the plugin's to close; one it was given is not. The same for MCP servers.
    const owned = opts.store === undefined || typeof opts.store === 'string' || !('get' in opts.store);
    const mcp = opts.mcpServers instanceof McpServers ? opts.mcpServers : opts.mcpServers && Object.keys(opts.mcpServers).length > 0 ? new McpServers(opts.mcpServers) : undefined;
    const ownsMcp = mcp !== undefined && mcp !== opts.mcpServers;
    const llm = llmConfigFromEnv(process.env, opts.llm ?? {});
    const fleet = groveFleetState({ tools: opts.tools, evaluators: opts.evaluators, mcp });
    const ready = async () => {
      if (!mcp) return;
      toolRegistry([...groveTools(opts.tools), ...(await mcp.tools())]);
      await fleet.settle();
    };
    const telemetry = opts.telemetry === false ? undefined : (opts.telemetry ?? groveTelemetry());
    const observed = telemetry && workerTelemetry(telemetry);
    const activities = createGroveActivities({ llm, store, tools: opts.tools, mcp, evaluators: opts.evaluators, policy: loadPolicy(opts.policy), telemetry: telemetry?.steps, fleet });
    // The registry queue's worker runs the same activities through the same interceptors.
    const activityInterceptors: WorkerInterceptors = { activity: [...(observed?.activity ?? []), activityGuards(secretRedactor(process.env, mcp?.secrets()))] };
    super({
      name: 'grove',
      ...(observed ? { clientInterceptors: { workflow: observed.client } } : {}),
      workerInterceptors: { ...(observed ? { workflowModules: observed.workflowModules } : {}), ...activityInterceptors },
      activities,
      runContext: async (next) => {
        try {
          await store.check();
          await ready();
          await next();
        } finally {
          if (ownsMcp) await mcp.close();
          if (owned) await store.close();
          await telemetry?.forceFlush();
        }
      },
    });
    this.store = store;
    this.llm = llm;
    this.mcp = mcp;
    this.fleet = fleet;
    this.ready = ready;
    this.observed = observed;
    this.fleetOptions = opts.fleet ?? {};
    this.groveActivities = activities;
    this.activityInterceptors = activityInterceptors;
    this.runsWorkflows = opts.workflows !== false;
  }

  override configureWorker(options: WorkerOptions): WorkerOptions {
    if (!this.fleet.settled) {
      throw new GroveError(
        'GrovePlugin: `await plugin.ready()` before `Worker.create`: the plugin has MCP servers, and the worker names its registry — their tools among them — when it is created',
      );
    }
    const identity = identityWithRegistry(options.identity ?? `${process.pid}@${hostname()}`, this.fleet.registry.fingerprint);
    const workflows = this.runsWorkflows ? groveWorkflows(options, this.observed !== undefined) : {};
    const heartbeats = { maxHeartbeatThrottleInterval: options.maxHeartbeatThrottleInterval ?? HEARTBEAT_THROTTLE_MS };
    return super.configureWorker(telemetryOptions({ ...options, identity, ...heartbeats, ...workflows }, this.observed));
  }

  override runWorker(worker: Worker, next: (w: Worker) => Promise<void>): Promise<void> {
    return super.runWorker(worker, (w) =>
      runInFleet(w, this.fleet, { activities: this.groveActivities, interceptors: this.activityInterceptors, store: this.store, ...this.fleetOptions }, () => next(w)),
    );
  }

  override configureReplayWorker(options: ReplayWorkerOptions): ReplayWorkerOptions {
    return super.configureReplayWorker(telemetryOptions({ ...options, ...groveWorkflows(options, this.observed !== undefined) }, this.observed));
  }
}

/**
 * What every activity of the worker goes through: known secrets never leave the worker in an
 * activity's error (it is recorded in history and logged), and a result too large for Temporal
 * fails at once, non-retryably, naming its size and the limit — instead of the worker failing
 * its completion and Temporal retrying the same oversized result forever.
 */
function activityGuards(redact: (text: string) => string): () => { inbound: ActivityInboundCallsInterceptor } {
  return () => ({
    inbound: {
      async execute(input, next) {
        let result: unknown;
        try {
          result = await next(input);
        } catch (err) {
          redactError(err, redact);
          throw err;
        }
        const problem = payloadProblem(`the result of activity ${activityContext()?.info.activityType ?? '?'}`, result);
        if (problem) throw ApplicationFailure.nonRetryable(`${problem}: Temporal cannot record it, so it is not retried`, PAYLOAD_TOO_LARGE);
        return result;
      },
    },
  });
}

/** grove's workflows (with the tracing interceptors when the worker exports telemetry), unless the worker already has workflows of its own. */
function groveWorkflows(options: Pick<WorkerOptions, 'workflowsPath' | 'workflowBundle'>, traced: boolean): Pick<WorkerOptions, 'workflowsPath' | 'workflowBundle'> {
  if (options.workflowsPath || options.workflowBundle) return {};
  if (!prebuiltMatches(traced)) return { workflowsPath: WORKFLOWS_PATH };
  return { workflowBundle: { codePath: traced ? PREBUILT_TRACED_BUNDLE : PREBUILT_BUNDLE } };
}

/** A store given as an object, a URL or settings, or else the environment's. */
export function resolveStore(store: GrovePluginOptions['store']): MessageStore {
  if (store === undefined) return openStore(storeSettingsFromEnv());
  return typeof store === 'string' || !('get' in store) ? openStore(store) : store;
}
