import { z } from 'zod';
import { renderTemplate } from '../conversation/template';
import type { AICall } from './ai-call';
import type { Condition, Feedback } from './evaluate-condition';
import { compilePattern, UnsupportedPatternError } from './safe-pattern';
import { zodFromJsonSchema } from './schema-patterns';
import { inputShapeProblem } from '../schemas/input-shape';
import type { CutMark } from '../schemas/messages';
import { formatBytes } from '../payload-limits';
import { schemaExpansion } from './schema-exact';

/** Positions a JSON Schema may have with its $refs followed (a wide object schema of 40,000 properties fits). */
const MAX_SCHEMA_POSITIONS = 200_000;

/**
 * How user-supplied patterns are matched: `linear` (RE2, the default) or `native` (JavaScript's
 * backtracking engine — only for replaying runs recorded before grove matched in linear time).
 */
export type PatternEngine = 'linear' | 'native';

/**
 * The built-in checks of the ready-made `airetry` workflow, for services that start runs with
 * JSON instead of writing workflow code. Each check looks at the active sample's answer text
 * and, when it fails, feeds back its `feedback` (default: a sentence saying what is wrong).
 * Feedback may use `{{output}}` for the failing answer.
 */
const common = {
  /** A name for results and logs; default `<kind>#<index>`. */
  name: z.string().min(1).optional().describe('A name for results and logs (default `<kind>#<index>`).'),
  feedback: z.string().optional().describe('What to tell the model when the check fails ({{output}} is the failing answer); default a sentence saying what is wrong.'),
  /** The airetry budget for this check (absolute, across checks, as in the seeds). */
  maxRetries: z.number().int().nonnegative().optional().describe('The retry budget up to this check (counted across checks, as in the seeds).'),
  evaluateAll: z.boolean().optional().describe('Check every sample of the tree, not only the new ones.'),
  feedbackExpensive: z.boolean().optional().describe('Compute the feedback only for the sample retried from.'),
};
const caseSensitive = z.boolean().optional().describe('Compare case-sensitively (default false).');

/** A JSON Schema from a run's input: usable by zod, its patterns matchable in linear time. */
export const JsonSchemaSpec = z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
  // Checked without recursion first: compiling a schema thousands of levels deep would overflow the stack.
  const shape = inputShapeProblem(schema);
  if (shape) {
    ctx.addIssue({ code: 'custom', message: `not a usable JSON Schema: ${shape}` });
    return;
  }
  // $refs that loop or fan out would make every check of an answer explode (inside the workflow): refused here.
  if (schemaExpansion(schema, MAX_SCHEMA_POSITIONS) > MAX_SCHEMA_POSITIONS) {
    ctx.addIssue({ code: 'custom', message: `not a usable JSON Schema: with its $refs followed it has more than ${MAX_SCHEMA_POSITIONS.toLocaleString('en-US')} positions (a $ref that refers to itself, or references that fan out)` });
    return;
  }
  try {
    zodFromJsonSchema(schema);
  } catch (err) {
    const unsupported = err instanceof UnsupportedPatternError;
    ctx.addIssue({ code: 'custom', message: unsupported ? (err as Error).message : `not a usable JSON Schema (${(err as Error).message})` });
  }
});

const RegexCheck = z.strictObject({
  kind: z.literal('regex').describe('The answer matches a regular expression.'),
  pattern: z.string().min(1).describe('A JavaScript regular expression.'),
  flags: z.string().regex(/^[dgimsuyv]*$/, 'flags are letters among d, g, i, m, s, u, v, y').optional().describe('Its flags, e.g. "i".'),
  ...common,
}).superRefine((check, ctx) => {
  try {
    new RegExp(check.pattern, check.flags);
  } catch (err) {
    ctx.addIssue({ code: 'custom', path: ['pattern'], message: `not a valid regular expression (${(err as Error).message})` });
    return;
  }
  try {
    compilePattern(check.pattern, check.flags);
  } catch (err) {
    ctx.addIssue({ code: 'custom', path: ['pattern'], message: (err as Error).message });
  }
});

export const CheckSpecSchema = z.discriminatedUnion('kind', [
  RegexCheck,
  z.strictObject({ kind: z.literal('maxWords').describe('At most `max` words.'), max: z.number().int().positive().describe('Most words allowed.'), ...common }),
  z.strictObject({ kind: z.literal('oneOf').describe('One of `choices`.'), choices: z.array(z.string()).min(1).describe('The allowed answers.'), caseSensitive, ...common }),
  z.strictObject({ kind: z.literal('equals').describe('Exactly `value`.'), value: z.string().describe('The expected answer.'), caseSensitive, ...common }),
  z.strictObject({ kind: z.literal('contains').describe('Contains `value`.'), value: z.string().min(1).describe('Text the answer must contain.'), caseSensitive, ...common }),
  z.strictObject({ kind: z.literal('startsWith').describe('Starts with `value`.'), value: z.string().min(1).describe('Text the answer must start with.'), caseSensitive, ...common }),
  z.strictObject({ kind: z.literal('lowercase').describe('All lowercase.'), ...common }),
  z.strictObject({
    kind: z.literal('jsonSchema').describe('Valid JSON matching `schema`.'),
    schema: JsonSchemaSpec.describe('A JSON Schema (its `pattern`s matched in linear time).'),
    ...common,
  }),
  z.strictObject({
    kind: z.literal('llmJudge').describe('A model judges the answer with a yes/no question.'),
    question: z.string().min(1).describe('The yes/no question, e.g. "Does it name a food?".'),
    model: z.string().min(1).optional().describe("The judge's model (default the run's)."),
    ...common,
  }),
]);
export type CheckSpec = z.infer<typeof CheckSpecSchema>;
export type CheckKind = CheckSpec['kind'];

export interface CompiledCheck {
  name: string;
  condition: Condition<unknown>;
  feedback: Feedback<unknown>;
  options: { maxRetries?: number; evaluateAll?: boolean; feedbackExpensive?: boolean };
}

/** Runs an LLM judge on a call: supplied by the workflow (it needs an activity). */
export type JudgeRunner = (call: AICall<unknown>, question: string, model?: string) => Promise<boolean>;

/** The cut mark of the active answer when grove cut its text (it was too large to carry whole). */
function cutAnswer(call: AICall<unknown>): CutMark | undefined {
  const last = call.lastMessage;
  return last?.role === 'assistant' && last.cut?.keptChars !== undefined ? last.cut : undefined;
}

/** The answer text a check looks at: the assistant's text, or a tool call's arguments. */
export function answerText(call: AICall<unknown>): string {
  const last = call.lastMessage;
  if (!last || last.role !== 'assistant') return '';
  return last.content ?? last.tool_calls?.[0]?.function.arguments ?? '';
}

/**
 * Turns a check spec into an airetry condition and feedback.
 *
 * @example
 * const check = compileCheck({ kind: 'maxWords', max: 1 }, 0, judge);
 * await airetry(check.condition, call, check.feedback, check.options);
 */
export function compileCheck(spec: CheckSpec, index: number, judge: JudgeRunner, opts: { patterns?: PatternEngine; arrayBounds?: boolean; exactSchema?: boolean } = {}): CompiledCheck {
  const engine = opts.patterns ?? 'linear';
  const fold = (s: string) => ('caseSensitive' in spec && spec.caseSensitive ? s : s.toLowerCase());
  const text = (call: AICall<unknown>) => answerText(call).trim();
  let condition: Condition<unknown>;
  let fallback: string | ((call: AICall<unknown>) => string);
  switch (spec.kind) {
    case 'regex': {
      const re = engine === 'linear' ? compilePattern(spec.pattern, spec.flags) : new RegExp(spec.pattern, spec.flags);
      condition = (call) => re.test(text(call));
      fallback = `Your answer must match the pattern /${spec.pattern}/${spec.flags ?? ''}.`;
      break;
    }
    case 'maxWords':
      condition = (call) => words(text(call)) <= spec.max;
      fallback = spec.max === 1 ? 'You must answer with 1 word only.' : `You must answer with at most ${spec.max} words.`;
      break;
    case 'oneOf':
      condition = (call) => spec.choices.some((c) => fold(c) === fold(text(call)));
      fallback = `You must answer with exactly one of: ${spec.choices.join(', ')}.`;
      break;
    case 'equals':
      condition = (call) => fold(text(call)) === fold(spec.value);
      fallback = 'That answer is not correct.';
      break;
    case 'contains':
      condition = (call) => fold(text(call)).includes(fold(spec.value));
      fallback = `Your answer must contain "${spec.value}".`;
      break;
    case 'startsWith':
      condition = (call) => fold(text(call)).startsWith(fold(spec.value));
      fallback = `It starts with "${spec.value}".`;
      break;
    case 'lowercase':
      condition = (call) => text(call) === text(call).toLowerCase();
      fallback = 'You must answer in lowercase.';
      break;
    case 'jsonSchema': {
      const schema = zodFromJsonSchema(spec.schema, engine, opts.arrayBounds ?? true, opts.exactSchema ?? true);
      const problem = (call: AICall<unknown>): string | undefined => {
        let value: unknown;
        try {
          value = JSON.parse(text(call));
        } catch (err) {
          return `it is not valid JSON (${(err as Error).message})`;
        }
        const result = schema.safeParse(value);
        return result.success ? undefined : result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
      };
      condition = (call) => problem(call) === undefined;
      fallback = (call) => `Your answer does not match the required JSON schema: ${problem(call)}.`;
      break;
    }
    case 'llmJudge':
      condition = (call) => judge(call, spec.question, spec.model);
      fallback = `A reviewer answered "no" to: ${spec.question}`;
      break;
  }
  const given: Feedback<unknown> =
    spec.feedback !== undefined ? (call) => renderTemplate(spec.feedback!, { output: answerText(call) }) : fallback;
  // An answer grove had to cut (too large to carry) is not checked on its first part: it fails, saying why.
  const checked = condition;
  return {
    name: spec.name ?? `${spec.kind}#${index}`,
    condition: (call) => (cutAnswer(call) ? false : checked(call)),
    feedback: (call) => {
      const cut = cutAnswer(call);
      if (cut) return `Your answer was ${formatBytes(cut.bytes)}, more than can be checked; answer much more briefly.`;
      return typeof given === 'function' ? given(call) : given;
    },
    options: { maxRetries: spec.maxRetries, evaluateAll: spec.evaluateAll, feedbackExpensive: spec.feedbackExpensive },
  };
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
