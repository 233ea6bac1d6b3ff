import { readFileSync } from 'node:fs';
import { parseInput } from '../../../core/schemas/parse-input';
import { GroveClient } from '../../grove-client';
import { checkPayload } from '../../input-guards';
import { RUN_KINDS, type RunKindName } from '../../run-kinds';
import { numberOption, parseCommandArgs, UsageError } from '../usage-error';
import { warnIfNoWorker } from '../worker-check';
import { watchProgress } from '../progress-line';
import { printOutcome } from './print-outcome';
import { StreamPrinter } from '../stream-printer';

const COMMON = {
  input: { type: 'string' },
  'workflow-id': { type: 'string' },
  'no-wait': { type: 'boolean' },
  json: { type: 'boolean' },
  stream: { type: 'boolean' },
  'no-stream': { type: 'boolean' },
} as const;

/** How long the answers still printing may take once the run has ended, before its outcome is printed. */
const STREAM_DRAIN_MS = 5_000;

/** `grove run <kind> ...` */
export async function runCommand(args: string[], io: { out: (line: string) => void }): Promise<number> {
  const [kind, ...rest] = args;
  if (!kind || !(kind in RUN_KINDS)) {
    throw new UsageError(`run: unknown run kind "${kind ?? ''}" (available: ${Object.keys(RUN_KINDS).join(', ')})`);
  }
  const command = `run ${kind}`;
  const { values } = parseCommandArgs(command, rest, {
    ...COMMON,
    ...(kind === 'generate'
      ? { prompt: { type: 'string' }, system: { type: 'string' }, model: { type: 'string' }, temperature: { type: 'string' } }
      : {}),
  } as const);
  if (values.stream && values['no-stream']) throw new UsageError(`${command}: --stream and --no-stream contradict each other: give one`);
  if (values.stream && values.json) throw new UsageError(`${command}: --stream does not go with --json: --json prints one JSON object and streams nothing`);
  const input = values.input !== undefined ? readInput(command, values.input) : flagsInput(command, kind as RunKindName, values);
  // A bad field is reported before connecting: the shape first (any depth, without recursion), then the schema.
  checkPayload(kind, input);
  parseInput(RUN_KINDS[kind as RunKindName].schema, input, `${kind} input`);

  const grove = await GroveClient.connect();
  try {
    const handle = await grove.start(kind as RunKindName, input as never, { workflowId: values['workflow-id'] });
    const link = grove.runUrl(handle.workflowId);
    if (values['no-wait']) {
      io.out(values.json ? JSON.stringify({ workflowId: handle.workflowId }) : `started ${handle.workflowId}${link ? `  ${link}` : ''}`);
      return 0;
    }
    await warnIfNoWorker(grove, (line) => process.stderr.write(`${line}\n`));
    const tty = Boolean(process.stderr.isTTY);
    // In a terminal (or with --stream) the answers are printed on stderr as they grow; stdout is the same either way.
    const streaming = !values.json && !values['no-stream'] && (values.stream === true || tty) ? streamAnswers(grove, handle.workflowId, tty) : undefined;
    const stopProgress =
      values.json && !tty
        ? () => {}
        : watchProgress(handle, {
            tty,
            columns: process.stderr.columns,
            write: (t) => process.stderr.write(t),
            health: () => grove.health(handle.workflowId),
            quiet: () => streaming?.printer.busy ?? false,
          });
    let outcome;
    try {
      outcome = await grove.outcome(handle.workflowId);
    } finally {
      stopProgress();
      await streaming?.finish(STREAM_DRAIN_MS);
    }
    return printOutcome(outcome, io, { json: values.json, link });
  } finally {
    await grove.close();
  }
}

/**
 * Prints the run's answers on stderr as they stream (`StreamPrinter`) until its events end;
 * `finish` waits for that at most `ms` (a store that cannot be read never holds the outcome back).
 */
function streamAnswers(grove: GroveClient, workflowId: string, tty: boolean): { printer: StreamPrinter; finish(ms: number): Promise<void> } {
  const printer = new StreamPrinter((t) => process.stderr.write(t), { tty });
  const controller = new AbortController();
  const done = (async () => {
    for await (const event of grove.events(workflowId, { signal: controller.signal, pollMs: 500 })) printer.event(event);
  })()
    .catch(() => {}) // streaming is a view: without it the run and its outcome are the same
    .finally(() => printer.end());
  return {
    printer,
    async finish(ms: number) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
      clearTimeout(timer);
      controller.abort();
      await done;
    },
  };
}

function readInput(command: string, path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(`${command}: cannot read --input ${path} (${(err as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${command}: --input ${path} is not valid JSON (${(err as Error).message})`);
  }
}

function flagsInput(command: string, kind: RunKindName, values: Record<string, unknown>): unknown {
  if (kind !== 'generate') throw new UsageError(`${command}: --input FILE.json is required`);
  if (!values.prompt) throw new UsageError(`${command}: --prompt is required`);
  const temperature = numberOption(command, 'temperature', values.temperature as string | undefined);
  // The flag is named, not the input field it fills (apiKwargs.temperature).
  if (temperature !== undefined && (temperature < 0 || temperature > 2)) throw new UsageError(`${command}: --temperature must be between 0 and 2, got "${values.temperature}"`);
  return {
    prompt: values.prompt,
    system: values.system,
    model: values.model,
    apiKwargs: temperature === undefined ? undefined : { temperature },
  };
}
