import { hostname } from 'node:os';
import { SimplePlugin } from '@temporalio/plugin';
import type { ActivityInboundCallsInterceptor, ReplayWorkerOptions, Worker, WorkerInterceptors, WorkerOptions } from '@temporalio/worker';
import type { EvaluatorDefinition } from '../activities/evaluators';
import { createGroveActivities, groveFleetState } from '../activities/grove-activities';
import type { FleetState } from '../activities/registry/worker-registry';
import { identityWithRegistry } from '../core/fleet/registry';
import { runInFleet, type FleetOptions } from './fleet';
import { activityContext } from '../activities/activity-context';
import { PAYLOAD_TOO_LARGE, payloadProblem } from '../core/payload-limits';
import { ApplicationFailure } from '@temporalio/common';
import { llmConfigFromEnv, type LlmConfig } from '../activities/llm/llm-config';
import type { MessageStore } from '../activities/store/message-store';
import { openStore, storeSettingsFromEnv, type StoreSettings } from '../activities/store/open-store';
import type { AnyToolDefinition } from '../activities/tools';
import { loadPolicy } from '../activities/policy/load-policy';
import { redactError, secretRedactor } from '../activities/secrets/secret-redactor';
import type { OperatorPolicyInput } from '../core/policy/operator-policy';
import { PREBUILT_BUNDLE, prebuiltMatches, WORKFLOWS_PATH } from './workflow-bundle';

export interface GrovePluginOptions {
  /** The message store, or its URL / settings; from the environment when omitted (`GROVE_STORE_URL`). */
  store?: MessageStore | StoreSettings | string;
  /** Where model calls go: the environment's settings (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `GROVE_MODEL`), with these fields overriding them. */
  llm?: Partial<LlmConfig>;
  /** Tools the search agents may call by name. */
  tools?: AnyToolDefinition[];
  /** Custom evaluators the search agents may use by name. */
  evaluators?: EvaluatorDefinition[];
  /** What one run may do (spend, fan-out, delays, task queues); `GROVE_POLICY_FILE` or safe defaults when omitted. */
  policy?: OperatorPolicyInput;
  /** How the worker reports other workers on its task queue whose tools differ (default: its logger). */
  fleet?: FleetOptions;
  /**
   * Whether the worker runs grove's workflows (default true). `false` makes a tool worker: it
   * serves grove's activities — your tools and evaluators among them — and runs no workflows.
   */
  workflows?: boolean;
}

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
  /** This worker's registry, and whether it routes (once it runs). */
  readonly fleet: FleetState;
  private readonly fleetOptions: FleetOptions;
  private readonly groveActivities: ReturnType<typeof createGroveActivities>;
  private readonly interceptors: WorkerInterceptors;
  private readonly runsWorkflows: boolean;

  constructor(opts: GrovePluginOptions = {}) {
    const store = resolveStore(opts.store);
    // A store the plugin opened from a URL is the plugin's to close; one it was given is not.
    const owned = opts.store === undefined || typeof opts.store === 'string' || !('get' in opts.store);
    const llm = llmConfigFromEnv(process.env, opts.llm ?? {});
    const fleet = groveFleetState(opts);
    const activities = createGroveActivities({ llm, store, tools: opts.tools, evaluators: opts.evaluators, policy: loadPolicy(opts.policy), fleet });
    const interceptors: WorkerInterceptors = { activity: [activityGuards(secretRedactor())] };
    super({
      name: 'grove',
      workerInterceptors: interceptors,
      activities,
      runContext: async (next) => {
        await store.check();
        try {
          await next();
        } finally {
          if (owned) await store.close();
        }
      },
    });
    this.store = store;
    this.llm = llm;
    this.fleet = fleet;
    this.fleetOptions = opts.fleet ?? {};
    this.groveActivities = activities;
    this.interceptors = interceptors;
    this.runsWorkflows = opts.workflows !== false;
  }

  override configureWorker(options: WorkerOptions): WorkerOptions {
    const identity = identityWithRegistry(options.identity ?? `${process.pid}@${hostname()}`, this.fleet.registry.fingerprint);
    return super.configureWorker({ ...options, identity, ...(this.runsWorkflows ? groveWorkflows(options) : {}) });
  }

  override runWorker(worker: Worker, next: (w: Worker) => Promise<void>): Promise<void> {
    return super.runWorker(worker, (w) =>
      runInFleet(w, this.fleet, { activities: this.groveActivities, interceptors: this.interceptors, store: this.store, ...this.fleetOptions }, () => next(w)),
    );
  }

  override configureReplayWorker(options: ReplayWorkerOptions): ReplayWorkerOptions {
    return super.configureReplayWorker({ ...options, ...groveWorkflows(options) });
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

/** grove's workflows, unless the worker already has workflows of its own. */
function groveWorkflows(options: Pick<WorkerOptions, 'workflowsPath' | 'workflowBundle'>): Pick<WorkerOptions, 'workflowsPath' | 'workflowBundle'> {
  if (options.workflowsPath || options.workflowBundle) return {};
  return prebuiltMatches() ? { workflowBundle: { codePath: PREBUILT_BUNDLE } } : { workflowsPath: WORKFLOWS_PATH };
}

/** A store given as an object, a URL or settings, or else the environment's. */
export function resolveStore(store: GrovePluginOptions['store']): MessageStore {
  if (store === undefined) return openStore(storeSettingsFromEnv());
  return typeof store === 'string' || !('get' in store) ? openStore(store) : store;
}
