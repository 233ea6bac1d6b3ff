import { StreamPrinter } from '../../../client/cli/stream-printer';
import { growth, nodeOfSummary, type TokenEvent } from '../../../core/runs/run-events';

/** Token events of one stream as `grove.events` makes them (growth from the text before). */
function stream(callId: string, texts: string[], over: Partial<TokenEvent> = {}): TokenEvent[] {
  let before: string | undefined;
  return texts.map((text, i) => {
    const { delta, restarted } = growth(before, text);
    before = text;
    return { type: 'token', callId, activityId: callId, attempt: 1, choice: 0, text, delta, restarted, state: i === texts.length - 1 ? 'done' : 'streaming', cut: false, summary: `expand n${callId}`, ...over };
  });
}

function printed(events: TokenEvent[]): string {
  let out = '';
  const printer = new StreamPrinter((t) => (out += t), { tty: false });
  for (const e of events) printer.event(e);
  printer.end();
  return out;
}

test('one answer: a header naming the call, then the text as it grows, then a line break', () => {
  expect(printed(stream('1', ['He', 'Hello', 'Hello, world']))).toBe('── expand n1 ──\nHello, world\n');
});

test('answers that stream at once are printed one after the other, each from its text so far', () => {
  const [a1, a2, a3] = stream('1', ['A', 'AB', 'ABC']);
  const [b1, b2] = stream('2', ['x', 'xy'], { choice: 1 });
  expect(printed([a1!, b1!, a2!, b2!, a3!])).toBe('── expand n1 ──\nABC\n── expand n2 (answer 2) ──\nxy\n');
});

test('a call that starts again says so; one that fails says so', () => {
  const first = stream('1', ['par', 'partial'], { state: 'streaming' });
  const retried: TokenEvent = { ...first[1]!, attempt: 2, text: 'new', delta: 'new', restarted: true, state: 'done' };
  expect(printed([...first, retried])).toBe('── expand n1 ──\npartial\n[attempt 2: the call started again]\nnew\n');
  const failed = stream('1', ['half', 'half'], { state: 'failed' });
  expect(printed(failed)).toBe('── expand n1 ──\nhalf\n[the call failed or was cancelled]\n');
});

test('the node a call extends is read from its summary', () => {
  expect(nodeOfSummary('expand n12 (depth 3): 2 candidates')).toBe(12);
  expect(nodeOfSummary('samples 7-8 ← 4 with feedback')).toBe(4);
  expect(nodeOfSummary('sample 3 ← 0')).toBe(0);
  expect(nodeOfSummary("generate: 'Say hi!'")).toBe(0);
  expect(nodeOfSummary('turn 2: model call 1')).toBeUndefined();
  expect(growth('Hello', 'Help')).toEqual({ delta: 'Help', restarted: true });
});
