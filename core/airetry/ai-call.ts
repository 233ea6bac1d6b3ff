import { ConversationRefs } from '../hash/conversation-refs';
import type { Ref } from '../hash/refs';
import { materialize, type ConversationDelta } from '../conversation/delta';
import { seededRandom, type RandomSource } from '../random';
import { addUsage, ZERO_USAGE } from '../budget';
import type { ChatParams } from '../schemas/chat-params';
import type { Message, Usage } from '../schemas/messages';
import { retryConfig, type RetryConfig, type RetryConfigInput } from '../schemas/retry-config';
import { SampleTree } from '../tree/sample-tree';
import { InterventionQueue } from '../steering/intervention-queue';
import type { CallIntervention, CallInterventionResult } from './call-intervention';
import type { OutputParser, ParsedOutput } from './output-parsers';
import type { AICallPort, CallError } from './ports';
import { runCall, type RunnableCall, type RunOptions } from './run-call';

export type AICallKind = 'generate' | 'extract' | 'classify' | 'scan';

export interface AICallOptions<T> {
  kind: AICallKind;
  parser: OutputParser<T>;
  model?: string;
  /** Model parameters (the seeds' `api_kwargs`); a `temperature` here wins over `config.temperature`. */
  apiKwargs?: ChatParams;
  config?: RetryConfigInput;
  port?: AICallPort;
  /** Randomness for Thompson sampling; a seeded source makes the whole run reproducible. */
  rng?: RandomSource;
  /**
   * Start from an existing sample tree (a fork of another run's call, see `ForkOrigin`) with
   * `activeSampleId` active, instead of from the prompt alone: the call has then already run.
   */
  from?: { tree: SampleTree<ConversationDelta>; activeSampleId: number };
}

/**
 * A lazy AI call (the seeds' `AICall`): it holds the prompt, the tree of every sample drawn so
 * far, which sample is active, the retry configuration and counters. Nothing is sent until
 * `run()`; `airetry` then checks, feeds back and re-runs it.
 *
 * The tree's root holds the prompt from the start (so a failed first call never loses it), and
 * each sample node holds only what it added: the feedback that led to it and the answer.
 *
 * @example
 * const call = new AICall(prompt, { kind: 'generate', parser: textOutput, port });
 * await call.run();
 * call.output; // the answer text
 */
export class AICall<T = string> implements RunnableCall {
  readonly kind: AICallKind;
  readonly samples: SampleTree<ConversationDelta>;
  readonly refs = new ConversationRefs();
  readonly parser: OutputParser<T>;
  readonly config: RetryConfig;
  model?: string;
  apiKwargs: ChatParams;
  activeSampleId: number;
  /** undefined before `run()`; false after a failed call or an unmet condition. */
  success?: boolean;
  error?: CallError;
  usage: Usage = ZERO_USAGE;
  port?: AICallPort;
  rng: RandomSource;
  /** How many model requests were sent (a request may return several samples). */
  requests = 0;
  /** Samples whose answer the token limit cut (`max_tokens`); known for the samples this call drew. */
  readonly cutSamples = new Set<number>();
  /** What people asked of the call while it runs (rewind, feedback); airetry applies it between rounds. */
  readonly steering = new InterventionQueue<CallIntervention, CallInterventionResult>();
  /** Set when a person stopped the call: airetry rounds end at once, with the best sample so far. */
  stopped?: { by: string; reason?: string };
  private readonly pathRefs = new Map<number, Ref>();

  constructor(prompt: Message[], opts: AICallOptions<T>) {
    this.kind = opts.kind;
    this.parser = opts.parser;
    this.config = retryConfig(opts.config);
    this.model = opts.model;
    this.apiKwargs = { ...(opts.apiKwargs ?? {}) };
    this.port = opts.port;
    this.rng = opts.rng ?? seededRandom(0);
    if (opts.from) {
      this.samples = opts.from.tree;
      this.activeSampleId = this.samples.node(opts.from.activeSampleId).id;
      this.success = true;
      for (const node of this.samples.preorder()) {
        const parent = node.parent === null ? null : this.pathRef(node.parent);
        this.pathRefs.set(node.id, this.refs.addPath(parent, node.data.keep, node.data.add));
      }
      return;
    }
    this.samples = SampleTree.create<ConversationDelta>({ add: prompt });
    this.activeSampleId = this.samples.rootId;
    this.pathRefs.set(this.samples.rootId, this.refs.addPath(null, undefined, prompt));
  }

  /** Draws `config.nSamples` new samples from the active sample (the seeds' `run!`). */
  run(opts: RunOptions = {}): Promise<this> {
    return runCall(this, opts);
  }

  /** The active sample's conversation (a fresh array). */
  get conversation(): Message[] {
    return materialize(this.samples, this.activeSampleId);
  }

  get lastMessage(): Message | undefined {
    const conv = this.conversation;
    return conv[conv.length - 1];
  }

  /** The active sample's answer, parsed; `undefined` when there is none or it is malformed. */
  get output(): T | undefined {
    const parsed = this.parsedOutput();
    return parsed?.ok ? parsed.value : undefined;
  }

  /** Why the active sample's answer could not be parsed (e.g. a schema violation), if it could not. */
  get outputError(): string | undefined {
    const parsed = this.parsedOutput();
    if (!parsed) return 'there is no answer yet';
    return parsed.ok ? undefined : parsed.error;
  }

  /** The content-addressed path of a sample's conversation (what activities receive). */
  pathRef(sampleId: number): Ref {
    const ref = this.pathRefs.get(sampleId);
    if (ref === undefined) throw new Error(`sample ${sampleId} has no conversation path`);
    return ref;
  }

  /** @internal bookkeeping for run-call */
  setPathRef(sampleId: number, ref: Ref): void {
    this.pathRefs.set(sampleId, ref);
  }

  /** @internal */
  addUsage(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
  }

  private parsedOutput(): ParsedOutput<T> | undefined {
    const last = this.lastMessage;
    return last?.role === 'assistant' ? this.parser.parse(last) : undefined;
  }
}

/**
 * What a ready-made run (airetry, code fixer) returns about its call: the chosen sample, its
 * conversation, the counters and the whole tree (compact JSON).
 *
 * @example
 * return { success, ...callSummary(call), treeText };
 */
export function callSummary<T>(call: AICall<T>) {
  return {
    activeSampleId: call.activeSampleId,
    conversation: call.conversation,
    calls: call.config.calls,
    retries: call.config.retries,
    usage: call.usage,
    tree: call.samples.toJSON() as unknown,
  };
}
