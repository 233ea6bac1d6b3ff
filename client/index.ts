/**
 * grove for backend services: start ready-made runs by name with validated input, wait for their
 * results, inspect and steer them; the store's retention; Temporal connection settings.
 *
 * @example
 * import { GroveClient } from 'grove-agents/client';
 * const grove = await GroveClient.connect();
 * const { output } = await grove.run('generate', { prompt: 'Say hi!' });
 */
export { GroveClient, type StartOptions } from './grove-client';
export { GroveSession, Steering, SteeringError, defaultActor, type SessionOpenOptions } from './steering-client';
export { RUN_KINDS, type RunInput, type RunKindName, type RunResult } from './run-kinds';
export { runInputJsonSchema } from './run-schemas';
export { formatHealth, formatStep, judgeHealth, DEFAULT_STALLED_AFTER_MS, type HealthState, type PendingStep, type RunHealth } from '../temporal/runs/run-health';
export type { HealthOptions } from '../temporal/runs/read-run-health';
export type { RunState } from './runs/run-state';
export { collectGarbage, namespaceRetentionMs, type CollectOptions } from './store-retention';
export { temporalSettings, runUrl, TemporalConfigError, type TemporalConnectionSettings } from '../temporal/connection-options';
export { connectClient, connectWorker, TemporalUnreachableError } from '../temporal/connect';
export { groveClientInterceptors } from '../temporal/telemetry-interceptors';
export { createGroveTelemetry, groveTelemetry, flushGroveTelemetry, shutdownGroveTelemetry } from '../activities/telemetry/telemetry-registry';
export { telemetrySettingsFromEnv, TelemetryConfigError, type TelemetrySettings } from '../activities/telemetry/otel-settings';
export type { GroveTelemetry, GroveTelemetryOptions } from '../activities/telemetry/grove-telemetry';
export { GroveInputError } from '../core/schemas/parse-input';
export type { AgentInput } from '../core/agents/agent-options';
export type { AgentResult } from '../core/agents/agent-result';
export type { AiretryInput, AiretryResult } from '../core/airetry/airetry-input';
export type { GenerateInput, GenerateResult } from '../core/generate/generate-input';
export type { SendResult, SessionResult } from '../core/session/session-result';
export type { SessionInput } from '../core/session/session-input';
export type { HumanAction } from '../core/schemas/steering';
export type { Verdict, Judge } from '../core/verdicts/verdict';
export type { VerifyReport, ClaimCheck } from '../core/verdicts/claims';
export { EXIT, type RunOutcome } from './runs/run-outcome';
export type { RunEvent, StatusEvent, NodeEvent, EvaluationEvent, TokenEvent } from '../core/runs/run-events';
export type { RunEventsOptions } from './runs/run-events';
export type { RewindRecord, SessionTreeView } from '../core/session/message-tree';
export type { ApprovalOutcome, PendingApproval } from '../core/steering/approvals';
