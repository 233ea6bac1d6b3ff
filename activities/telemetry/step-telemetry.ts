/**
 * What the activities tell telemetry about the steps they run: model calls, tool runs and
 * evaluations. Activities hold an optional `StepTelemetry` and call straight through when it is
 * absent, so a worker without telemetry runs exactly the code it ran before (and loads no
 * OpenTelemetry package). `genAiSteps` turns these into spans and metrics with the GenAI
 * semantic conventions.
 */
export interface StepTelemetry {
  /** One logical model call, every request it took included (a fallback, an emulated `n`). */
  modelCall<T>(request: ModelRequest, call: () => Promise<T>, read: (result: T) => ModelResponse): Promise<T>;
  /** One run of a tool the model called. */
  toolRun<T>(tool: ToolRun, run: () => Promise<T>, read: (result: T) => ToolOutcome): Promise<T>;
  /** One evaluation of a trajectory (its model calls, for the LLM evaluator, nest inside it). */
  evaluation<T>(evaluator: string, run: () => Promise<T>, read: (result: T) => EvaluationOutcome): Promise<T>;
}

/** A chat message as grove sends it (OpenAI's wire shape). */
export interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; type?: string; function?: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ModelRequest {
  operation: 'chat' | 'embeddings';
  model: string;
  /** The endpoint: its host is `server.address` and names the provider. */
  baseURL: string;
  /** The request's parameters (temperature, max_tokens, n, ...) and, for chat, its messages. */
  body?: Record<string, unknown> & { messages?: WireMessage[] };
}

export interface ModelResponse {
  model?: string;
  id?: string;
  finishReasons?: string[];
  inputTokens?: number;
  outputTokens?: number;
  /** The answers, recorded only when content capture is on. */
  choices?: Array<{ message: WireMessage; finishReason?: string }>;
}

export interface ToolRun {
  name: string;
  callId: string;
  description?: string;
  /** The model's arguments (JSON text), recorded only when content capture is on. */
  arguments?: string;
}

export interface ToolOutcome {
  isError: boolean;
  /** What the model is told back, recorded only when content capture is on. */
  content?: string;
}

export interface EvaluationOutcome {
  /** grove's score, 0 to 1. */
  score: number;
  /** The evaluator's reasoning, recorded only when content capture is on. */
  reasoning?: string;
}
