/**
 * grove's scripted OpenAI-compatible model server: public API.
 *
 * @example
 * import { startModelServer } from './model-server';
 * const server = await startModelServer();
 * process.env.OPENAI_BASE_URL = server.baseURL;
 */
export { startModelServer, ABORTED_STATUS } from './server';
export type {
  ChatMessage,
  ChatPolicy,
  ChatRequest,
  EmbeddingsRequest,
  FaultAction,
  FaultMatch,
  FaultRule,
  FinishReason,
  FunctionTool,
  ModelServer,
  ModelServerOptions,
  OutcomeCounters,
  PolicyContext,
  PolicyReply,
  PolicyToolCall,
  RequestLogEntry,
  RequestOutcome,
  ServerStats,
} from './types';
export { parseModelName } from './model-name';
export { UNHASHED_REQUEST_FIELDS, canonicalJson, requestHash } from './hashing';
export { seededRng } from './rng';
export { approxTokens } from './token-count';
export { FIXED_CREATED, toolCallId } from './completion';
export { embedText, DEFAULT_EMBEDDING_DIMENSIONS } from './embeddings';
export { faultRuleSchema } from './fault-book';
export { BUILT_IN_POLICIES } from './policies';
export { echoPolicy } from './policies/echo';
export { assistantPolicy, assistantAnswer } from './policies/assistant';
export { colorGuesserPolicy, parseColorCandidates, colorConstraints, DEFAULT_COLORS } from './policies/color-guesser';
export { numberGuesserPolicy, parseNumberRange, numberKnowledge, consistentNumbers } from './policies/number-guesser';
export { foodExtractorPolicy, extractFood } from './policies/food-extractor';
export { classifierPolicy, parseChoices, classifyText } from './policies/classifier';
export { multiplierPolicy, multiplierState } from './policies/multiplier';
export { multiplierJudgePolicy, judgeMultiplication } from './policies/multiplier-judge';
export {
  multiplicationPlan,
  parseMultiplicationTask,
  toolResultNumber,
  sameNumber,
  QUICKSTART_TASK,
  STEP_ORDER,
} from './policies/multiplication-plan';
export type { MultiplicationPlan, MultiplicationStep, MultiplicationTask, StepKey } from './policies/multiplication-plan';
export { FEEDBACK_HEADER } from './policies/conversation';
export { completeInProcess, inProcessOpenAI } from './in-process';
