import { GroveClient } from '../../grove-client';
import { runUrl } from '../../local/ensure-temporal';
import { numberOption, parseCommandArgs, UsageError } from '../usage-error';
import { warnIfNoWorker } from '../worker-check';

export const RUN_HELP = `grove run generate --prompt TEXT [--system TEXT] [--model NAME] [--temperature T] [--workflow-id ID] [--no-wait] [--json]
  Starts a run on the Temporal server (TEMPORAL_ADDRESS, or the local dev server), waits and prints the answer.`;

/** `grove run <kind> ...` */
export async function runCommand(args: string[], io: { out: (line: string) => void; uiUrl?: string }): Promise<void> {
  const [kind, ...rest] = args;
  if (kind !== 'generate') throw new UsageError(`run: unknown run kind "${kind ?? ''}" (available: generate)`);
  const { values } = parseCommandArgs('run generate', rest, {
    prompt: { type: 'string' },
    system: { type: 'string' },
    model: { type: 'string' },
    temperature: { type: 'string' },
    'workflow-id': { type: 'string' },
    'no-wait': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (!values.prompt) throw new UsageError('run generate: --prompt is required');
  const temperature = numberOption('run generate', 'temperature', values.temperature);
  const grove = await GroveClient.connect();
  try {
    const handle = await grove.start(
      'generate',
      {
        prompt: values.prompt,
        system: values.system,
        model: values.model,
        apiKwargs: temperature === undefined ? undefined : { temperature },
      },
      { workflowId: values['workflow-id'] },
    );
    const link = runUrl(io.uiUrl ?? process.env.GROVE_UI_URL ?? 'http://127.0.0.1:8233', grove.temporal.options.namespace, handle.workflowId);
    if (values['no-wait']) {
      io.out(values.json ? JSON.stringify({ workflowId: handle.workflowId }) : `started ${handle.workflowId}${link ? `  ${link}` : ''}`);
      return;
    }
    await warnIfNoWorker(grove, (line) => process.stderr.write(`${line}\n`));
    const result = await handle.result();
    if (values.json) io.out(JSON.stringify({ workflowId: handle.workflowId, ...result }));
    else {
      io.out(result.output ?? '(no text: the model answered with tool calls)');
      io.out(`workflow: ${handle.workflowId}${link ? `  ${link}` : ''}`);
    }
  } finally {
    await grove.close();
  }
}
