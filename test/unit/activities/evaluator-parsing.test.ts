import { combineEvaluations, parseEvaluation, renderTrajectory } from '../../../activities/evaluators';
import { assistantMessage, systemMessage, toolMessage, userMessage, type ToolCall } from '../../../core/schemas/messages';

const call = (id: string, name: string, args: string): ToolCall => ({ id, type: 'function', function: { name, arguments: args } });

describe('renderTrajectory', () => {
  test('renders each role as a labelled block, tool calls as name(args) and tool results under the tool name', () => {
    const text = renderTrajectory([
      systemMessage('Be exact.'),
      userMessage('Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).'),
      assistantMessage(null, { tool_calls: [call('c1', 'multiply', '{ "a": 9418.343,\n "b": 8.11 }')] }),
      toolMessage('c1', '76382.76173', 76382.76173),
      assistantMessage('Now y.', { tool_calls: [call('c2', 'multiply', '{"a":2,"b":76382.76173}'), call('c3', 'add', '{"a": "nine"')] }),
      toolMessage('c2', '152765.52346'),
      toolMessage('c3', 'Error: unknown tool add'),
      toolMessage('orphan', 'who called me?'),
      assistantMessage('The answer is 42', { runId: 'r1', sampleId: 0 }),
    ]);
    expect(text).toBe(
      [
        '[system] Be exact.',
        '[user] Let x = 9418.343 * 8.11 and y = 2x. Calculate (xy)(x^2).',
        '[assistant] → multiply({"a":9418.343,"b":8.11})',
        '[tool multiply] 76382.76173',
        '[assistant] Now y.\n[assistant] → multiply({"a":2,"b":76382.76173})\n[assistant] → add({"a": "nine") [the arguments are not valid JSON]',
        '[tool multiply] 152765.52346',
        '[tool add] Error: unknown tool add',
        '[tool] who called me?',
        '[assistant] The answer is 42',
      ].join('\n\n'),
    );
  });

  test('images, refusals and empty replies are visible', () => {
    const text = renderTrajectory([
      userMessage([{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }]),
      assistantMessage(null, { refusal: 'I cannot help with that.' }),
      assistantMessage(''),
    ]);
    expect(text).toBe('[user] What is this?\n[image]\n\n[assistant refused] I cannot help with that.\n\n[assistant] (empty reply)');
  });

  test('a long trajectory keeps the task and the most recent steps, and says how many were omitted', () => {
    const steps = Array.from({ length: 10 }, (_, i) => assistantMessage(`step ${i} ${'.'.repeat(80)}`));
    const text = renderTrajectory([systemMessage('s'.repeat(50)), userMessage('THE TASK'), ...steps], { maxChars: 400 });
    expect(text.length).toBeLessThanOrEqual(450);
    const blocks = text.split('\n\n');
    expect(blocks[0]).toBe('[… 1 message omitted …]');
    expect(blocks[1]).toBe('[user] THE TASK');
    expect(blocks[2]).toMatch(/^\[… \d+ messages omitted …\]$/);
    const kept = blocks.slice(3).map((b) => Number(/step (\d+)/.exec(b)![1]));
    const omitted = Number(/\d+/.exec(blocks[2])![0]);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 10 - kept.length + i)); // contiguous, up to the last step
    expect(omitted + kept.length).toBe(10);
    expect(kept.length).toBeGreaterThanOrEqual(2);
  });

  test('when the whole tail fits, messages before the task are added newest first while they fit', () => {
    const conv = [systemMessage('S'.repeat(40)), systemMessage('short'), userMessage('T'), assistantMessage('x'.repeat(200))];
    expect(renderTrajectory(conv, { maxChars: 240 })).toBe(`[… 1 message omitted …]\n\n[system] short\n\n[user] T\n\n[assistant] ${'x'.repeat(200)}`);
    expect(renderTrajectory(conv, { maxChars: 230 })).toBe(`[… 2 messages omitted …]\n\n[user] T\n\n[assistant] ${'x'.repeat(200)}`);
  });

  test('a huge message loses its middle, keeping its start and end', () => {
    const huge = `HEAD${'x'.repeat(10_000)}TAIL`;
    const text = renderTrajectory([userMessage('task'), toolMessage('c', huge)], { maxMessageChars: 300 });
    const block = text.split('\n\n')[1];
    expect(block.startsWith('[tool] HEAD')).toBe(true);
    expect(block.endsWith('TAIL')).toBe(true);
    expect(block).toContain(`… [${'[tool] '.length + huge.length - 300} characters omitted] …`);
    expect(block.length).toBeLessThan(360);
  });

  test('a trajectory that fits comes back whole, whatever the limits', () => {
    const conv = [userMessage('a'), assistantMessage('b')];
    expect(renderTrajectory(conv, { maxChars: 25 })).toBe('[user] a\n\n[assistant] b');
  });
});

describe('parseEvaluation', () => {
  test.each<[string, string, number, string, boolean, boolean]>([
    // [case, text, score, reasoning, usable, repaired]
    ['clean JSON', '{"reasoning":"x and y are right","score":4}', 0.4, 'x and y are right', true, false],
    ['clean JSON, fractional', '{"reasoning":"r","score":7.5}', 0.75, 'r', true, false],
    ['clean JSON, surrounding whitespace', '\n  {"score": 10, "reasoning": "solved"}  \n', 1, 'solved', true, false],
    ['score 0', '{"reasoning":"wrong","score":0}', 0, 'wrong', true, false],
    ['numeric-string score', '{"reasoning":"ok","score":"8"}', 0.8, 'ok', true, true],
    ['above 10 is malformed, not clamped', '{"reasoning":"great","score":15}', 0.5, 'great', false, true],
    ['below 0 is malformed, not clamped', '{"reasoning":"awful","score":-3}', 0.5, 'awful', false, true],
    ['no reasoning field', '{"score":6}', 0.6, '', true, false],
    ['non-string reasoning', '{"reasoning":["a"],"score":6}', 0.6, '', true, false],
    ['code fence', '```json\n{"reasoning": "fine", "score": 9}\n```', 0.9, 'fine', true, true],
    ['prose around JSON', 'Here is my grade: {"reasoning": "half done", "score": 5} Hope it helps.', 0.5, 'half done', true, true],
    ['braces inside strings', 'Grade: {"reasoning": "uses {curly} braces }", "score": 3}', 0.3, 'uses {curly} braces }', true, true],
    ['nested object', '{"evaluation": {"reasoning": "deep", "score": 2}}', 0.2, 'deep', true, true],
    ['first usable block wins', '{"note": 1} then {"reasoning":"a","score":1} then {"reasoning":"b","score":9}', 0.1, 'a', true, true],
    ['truncated JSON falls back to the regex', '{"reasoning": "cut off here", "score": 8', 0.8, 'cut off here', true, true],
    ['regex: Score: N/10', 'The agent is close.\nScore: 7/10', 0.7, 'The agent is close.\nScore: 7/10', true, true],
    ['regex: score is N', 'I think the score is 6.5 overall', 0.65, 'I think the score is 6.5 overall', true, true],
    ['regex: the last match wins', 'A score: 2 would be harsh; final score = 9', 0.9, 'A score: 2 would be harsh; final score = 9', true, true],
    ['regex: single quotes', "{'reasoning': 'python style', 'score': 4}", 0.4, "{'reasoning': 'python style', 'score': 4}", true, true],
    ['regex: out of range is malformed', 'score: 42', 0.5, 'score: 42', false, true],
    ['non-numeric score string', '{"reasoning":"hmm","score":"high"}', 0.5, '', false, true],
    ['no score at all', 'I cannot grade this trajectory.', 0.5, '', false, true],
    ['empty text', '', 0.5, '', false, true],
    ['a JSON number alone', '7', 0.5, '', false, true],
    ['a JSON array', '[{"score": 3}]', 0.3, '', true, true],
    ['null score', '{"reasoning":"x","score":null}', 0.5, '', false, true],
  ])('%s', (_case, text, score, reasoning, usable, repaired) => {
    const parsed = parseEvaluation(text);
    expect(parsed).toMatchObject({ score, reasoning, usable, repaired });
    expect(parsed.problem === undefined).toBe(usable);
  });

  // The judge edge cases: whatever number a judge writes, only a finite one in [0, 10] is a score;
  // anything else is a malformed sample (5/10, not usable, `problem` says why) — never 1.0.
  test.each<[string, string, string]>([
    ['1e999 (JSON reads Infinity)', '{"reasoning":"solved","score":1e999}', 'score Infinity is not a finite number in [0, 10]'],
    ['-1e999 (JSON reads -Infinity)', '{"reasoning":"x","score":-1e999}', 'score -Infinity is not a finite number in [0, 10]'],
    ['1e999 in prose', 'Final verdict. Score: 1e999', 'score Infinity is not a finite number in [0, 10]'],
    ['"Infinity" as a string', '{"reasoning":"x","score":"Infinity"}', 'no score found'],
    ['NaN in prose', 'score: NaN', 'no score found'],
    ['11', '{"reasoning":"x","score":11}', 'score 11 is not a finite number in [0, 10]'],
    ['10.0001', '{"reasoning":"x","score":10.0001}', 'score 10.0001 is not a finite number in [0, 10]'],
    ['-0.5', '{"reasoning":"x","score":-0.5}', 'score -0.5 is not a finite number in [0, 10]'],
    ['1e2', '{"reasoning":"x","score":1e2}', 'score 100 is not a finite number in [0, 10]'],
    ['missing', '{"reasoning":"x"}', 'no score found'],
    ['null', '{"reasoning":"x","score":null}', 'no score found'],
    ['a word', '{"reasoning":"x","score":"high"}', 'no score found'],
    ['an object', '{"reasoning":"x","score":{"value":10}}', 'no score found'],
  ])('judge edge case %s: malformed, 5/10, never 1.0', (_case, text, problem) => {
    expect(parseEvaluation(text)).toMatchObject({ score: 0.5, usable: false, repaired: true, problem });
  });

  test('an out-of-range score is not searched past for a friendlier number', () => {
    expect(parseEvaluation('{"reasoning":"I would say score: 8","score":12}')).toMatchObject({ usable: false, score: 0.5 });
  });

  test('very long reasoning is cut', () => {
    expect(parseEvaluation(JSON.stringify({ reasoning: 'r'.repeat(5000), score: 5 })).reasoning).toHaveLength(2000);
  });
});

describe('combineEvaluations', () => {
  test('the mean of the samples, the first usable reasoning, repaired if any sample was', () => {
    const out = combineEvaluations(['nonsense', '{"reasoning":"ok","score":8}', '{"reasoning":"meh","score":2}'].map(parseEvaluation));
    expect(out).toEqual({ score: 0.5, reasoning: 'ok', samples: [0.5, 0.8, 0.2], repaired: true });
  });

  test('equal samples give exactly their score (no floating-point drift below a threshold)', () => {
    const out = combineEvaluations(Array.from({ length: 3 }, () => parseEvaluation('{"reasoning":"r","score":7}')));
    expect(out.score).toBe(0.7);
    expect(out.repaired).toBe(false);
  });

  test('when no sample is usable, the reasoning says so and the evaluation failed, saying why', () => {
    expect(combineEvaluations([parseEvaluation('??'), parseEvaluation('{"score":1e999}')])).toEqual({
      score: 0.5,
      reasoning: "the evaluator's answers had no usable score; scored 5/10 by default",
      samples: [0.5, 0.5],
      repaired: true,
      failed: 'the judge gave no usable score (no score found; score Infinity is not a finite number in [0, 10])',
    });
  });

  test('a malformed sample among usable ones counts 5/10: the mean never reaches 1.0', () => {
    const out = combineEvaluations(['{"reasoning":"perfect","score":10}', '{"reasoning":"perfect","score":1e999}'].map(parseEvaluation));
    expect(out).toMatchObject({ score: 0.75, samples: [1, 0.5] });
    expect(out.failed).toBeUndefined();
  });
});
