/**
 * Stable failure types of model calls. Retry policies and callers match on these names
 * (`nonRetryableErrorTypes`, `failure.cause.type`), so they never change.
 */
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

/** The failure types that retrying cannot fix: the run fails fast and says what to change. */
export const NON_RETRYABLE_LLM_FAILURES: string[] = [
  LlmFailure.BadRequest,
  LlmFailure.ContextLength,
  LlmFailure.Auth,
  LlmFailure.PermissionDenied,
  LlmFailure.ModelNotFound,
  LlmFailure.QuotaExceeded,
  LlmFailure.StoreMiss,
];
