import { DefaultLogger, makeTelemetryFilterString, Runtime } from '@temporalio/worker';
import { readFileSync } from 'node:fs';
import { describeReplay, replayAll, replayHistory, replayRun, type ReplayReport } from '../../replay/replay';
import { GroveClient } from '../../grove-client';
import { numberOption, parseCommandArgs, UsageError } from '../usage-error';

/** `grove replay` */
export async function replayCommand(args: string[], io: { out: (line: string) => void }): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'replay',
    args,
    {
      'run-id': { type: 'string' },
      history: { type: 'string' },
      workflows: { type: 'string' },
      bundle: { type: 'string' },
      all: { type: 'boolean' },
      query: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    },
    1,
  );
  const workflowId = positionals[0];
  if (values.all && (workflowId || values.history)) throw new UsageError('replay: give WORKFLOW_ID or --history FILE, or --all, not both');
  if (!values.all && !workflowId && !values.history) throw new UsageError('replay: WORKFLOW_ID, --history FILE or --all is required');
  const limit = numberOption('replay', 'limit', values.limit);
  quietRuntime();
  if (values.workflows && values.bundle) throw new UsageError('replay: give --workflows or --bundle, not both');
  const opts = { workflowsPath: values.workflows, workflowBundle: values.bundle ? { codePath: values.bundle } : undefined };
  let reports: ReplayReport[];
  if (values.history && !values.all) {
    reports = [await replayHistory(readHistory(values.history), { ...opts, workflowId: workflowId ?? values.history })];
  } else {
    const grove = await GroveClient.connect();
    try {
      reports = values.all
        ? await replayAll(grove.temporal, { ...opts, query: values.query, limit })
        : [await replayRun(grove.temporal, workflowId!, { ...opts, runId: values['run-id'] })];
    } finally {
      await grove.close();
    }
  }
  if (values.json) io.out(JSON.stringify(reports.length === 1 && !values.all ? reports[0] : reports));
  else {
    for (const report of reports) io.out(describeReplay(report));
    if (values.all) io.out(`${reports.filter((r) => r.ok).length} of ${reports.length} runs replay with the same decisions`);
  }
  return reports.every((r) => r.ok) ? 0 : 1;
}

function readHistory(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`replay: cannot read --history ${path} (${(err as Error).message})`);
  }
}

/** The SDK logs every replay failure as a warning: the report says it better. */
function quietRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }) } } });
  } catch {
    // already installed (a process that also runs workers): keep its logging
  }
}
