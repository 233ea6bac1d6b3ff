/**
 * grove's failure catalogue: every failure type grove raises across the activity and workflow
 * boundaries, and which of them retrying cannot fix. These names are grove's cross-language
 * contract — retry policies (`nonRetryableErrorTypes`), workflows (`failure.cause.type`), the
 * CLI and the Python client match on them — so they never change; a new failure gets a new name
 * here and a row in docs/durability.md ("Failure types"). No imports: workflows, activities and
 * clients all import this file.
 *
 * @example
 * if (err.cause?.type === LlmFailure.StoreMiss) resendInline();
 * throw ApplicationFailure.nonRetryable(message, RunFailure.InvalidInput);
 */

/** Model calls (`llmChat` and the activities that call a model). */
export const LlmFailure = {
  BadRequest: 'GroveBadRequest',
  ContextLength: 'GroveContextLengthExceeded',
  Auth: 'GroveAuthFailed',
  PermissionDenied: 'GrovePermissionDenied',
  ModelNotFound: 'GroveModelNotFound',
  QuotaExceeded: 'GroveQuotaExceeded',
  RateLimited: 'GroveRateLimited',
  ProviderError: 'GroveProviderError',
  Network: 'GroveNetworkError',
  Timeout: 'GroveTimeout',
  MalformedResponse: 'GroveMalformedResponse',
  /** The message store lacks a ref (e.g. a worker on another host); the workflow resends inline. */
  StoreMiss: 'GroveStoreMiss',
} as const;

/** The message store. */
export const StoreFailure = {
  /** A stored message or path does not hash to its ref. */
  BadRef: 'GroveBadRef',
} as const;

/** Runs and their updates: what a workflow or the client says about a run as a whole. */
export const RunFailure = {
  /** A bad field of a run's input or of an update, named in the message (also an operator policy's ceiling). */
  InvalidInput: 'GroveInvalidInput',
  /** An update that is well-formed but cannot apply now (a finished run, a bad `n`, no pending call). */
  UpdateRejected: 'GroveUpdateRejected',
  /** A payload too large for Temporal (the same payload would fail again). */
  PayloadTooLarge: 'GrovePayloadTooLarge',
  /** A call's retries ended without an error of its own (neither a timeout nor a model failure). */
  RetriesExhausted: 'GroveRetriesExhausted',
  /** A run failed for a reason that has no type of its own. */
  RunFailed: 'GroveRunFailed',
  /** Every evaluation of a search failed: the evaluator is broken, not the candidates. */
  EvaluationsFailed: 'GroveEvaluationsFailed',
  /** A steering request reached a run that has finished. */
  RunFinished: 'GroveRunFinished',
  /** A steering request named a run that does not exist. */
  RunNotFound: 'GroveRunNotFound',
} as const;

/** airetry's own errors (a workflow fails with their names as its failure type). */
export const AiretryFailure = {
  /** `throw: true` and the retries or calls ran out before a check passed. */
  RetryBudgetExhausted: 'GroveRetryBudgetExhausted',
  /** A call used out of order (e.g. airetry on a call that has not run, a call with no port). */
  CallState: 'GroveCallState',
} as const;

/** `groveEvaluate`. */
export const EvaluatorFailure = {
  /** A custom evaluator threw, or returned a score outside [0, 1] or not a number. */
  Failed: 'GroveEvaluatorFailed',
  /** The evaluator name is not registered on the worker that ran the activity. */
  Unknown: 'GroveUnknownEvaluator',
  /** The evaluator spec itself is invalid (e.g. `nSamples: 0`); the workflow normally catches this first. */
  InvalidSpec: RunFailure.InvalidInput,
} as const;

/**
 * The tool activities. Only problems of the worker's setup fail an activity; whatever the model
 * got wrong becomes a tool message.
 */
export const ToolFailure = {
  /** `groveDescribeTools` / `groveActiveTools` named a tool this worker does not register. */
  UnknownTool: 'GroveUnknownTool',
  /** A tool definition that can never work (bad name, schema not a JSON object...), or two tools with one name. */
  InvalidDefinition: 'GroveInvalidToolDefinition',
} as const;

/**
 * MCP tool calls: a server that cannot be started or reached, dies, or does not answer in time
 * (retryable: the next attempt starts the server again).
 */
export const McpFailure = {
  /** The server could not be started or reached, or closed the connection during the call. */
  Unavailable: 'GroveMcpUnavailable',
  /** The server did not answer within its `timeoutMs` (or `startTimeoutMs` while starting). */
  Timeout: 'GroveMcpTimeout',
} as const;

/**
 * grove's optional engines (`pg`, `pyodide`, `quickjs-emscripten`, `node-llama-cpp`): peer
 * dependencies a project installs only for the features that need them.
 */
export const EngineFailure = {
  /** A feature's engine package is not installed; the message names the package and its install command. */
  Missing: 'GroveEngineMissing',
} as const;

/** The registry checks of a fleet. */
export const RegistryFailure = {
  /** A worker lacks what a run names, or has a different registry than the run's. */
  Mismatch: 'GroveRegistryMismatch',
} as const;

/** Model-call failures that retrying cannot fix: the run fails fast and says what to change. */
export const NON_RETRYABLE_LLM_FAILURES: string[] = [
  LlmFailure.BadRequest,
  LlmFailure.ContextLength,
  LlmFailure.Auth,
  LlmFailure.PermissionDenied,
  LlmFailure.ModelNotFound,
  LlmFailure.QuotaExceeded,
  LlmFailure.StoreMiss,
];

/** Evaluator failures that retrying cannot fix. */
export const NON_RETRYABLE_EVALUATOR_FAILURES: string[] = [EvaluatorFailure.Failed, EvaluatorFailure.Unknown, EvaluatorFailure.InvalidSpec];

/** What an agent's or a session's activities do not retry: model, tool and evaluator failures retrying cannot fix. */
export const NON_RETRYABLE_AGENT_FAILURES: string[] = [...NON_RETRYABLE_LLM_FAILURES, ToolFailure.UnknownTool, ...NON_RETRYABLE_EVALUATOR_FAILURES];
