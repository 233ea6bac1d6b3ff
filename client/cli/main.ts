import { LlmConfigError } from '../../activities/llm/llm-config';
import { StoreConfigError, StoreUnavailableError } from '../../activities/store/store-errors';
import { GroveInputError } from '../../core/schemas/parse-input';
import { TemporalCliNotFoundError } from '../temporal-server/cli-binary';
import { DEMO_HELP, demoCommand } from './commands/demo';
import { DEV_HELP, devCommand } from './commands/dev';
import { FORK_HELP, forkCommand } from './commands/fork';
import { LIST_HELP, listCommand } from './commands/list';
import { REPLAY_HELP, replayCommand } from './commands/replay';
import { RESULT_HELP, resultCommand } from './commands/result';
import { RESUME_HELP, resumeCommand } from './commands/resume';
import { CANCEL_HELP, cancelCommand, PROGRESS_HELP, progressCommand, SHOW_HELP, showCommand, TREE_HELP, treeCommand } from './commands/inspect';
import { MODEL_SERVER_HELP, modelServerCommand } from './commands/model-server';
import { PROVISION_HELP, provisionCommand } from './commands/provision';
import { RUN_HELP, runCommand } from './commands/run';
import { SCHEMA_HELP, schemaCommand } from './commands/schema';
import { SETUP_HELP, setupCommand } from './commands/setup';
import { STORE_HELP, storeCommand } from './commands/store';
import { WORKER_HELP, workerCommand } from './commands/worker';
import { describeFailure } from './describe-failure';
import { UsageError } from './usage-error';

type Io = { out: (line: string) => void };

/** Every command, in the order `grove help` lists them. */
const COMMANDS: Record<string, { help: string; run: (args: string[], io: Io) => Promise<unknown> }> = {
  demo: { help: DEMO_HELP, run: demoCommand },
  dev: { help: DEV_HELP, run: devCommand },
  run: { help: RUN_HELP, run: runCommand },
  result: { help: RESULT_HELP, run: resultCommand },
  list: { help: LIST_HELP, run: listCommand },
  tree: { help: TREE_HELP, run: treeCommand },
  show: { help: SHOW_HELP, run: showCommand },
  progress: { help: PROGRESS_HELP, run: progressCommand },
  cancel: { help: CANCEL_HELP, run: cancelCommand },
  resume: { help: RESUME_HELP, run: resumeCommand },
  fork: { help: FORK_HELP, run: forkCommand },
  replay: { help: REPLAY_HELP, run: replayCommand },
  schema: { help: SCHEMA_HELP, run: schemaCommand },
  store: { help: STORE_HELP, run: storeCommand },
  worker: { help: WORKER_HELP, run: (args) => workerCommand(args) },
  'model-server': { help: MODEL_SERVER_HELP, run: modelServerCommand },
  setup: { help: SETUP_HELP, run: setupCommand },
  provision: { help: PROVISION_HELP, run: provisionCommand },
};

const HELP = ['grove — durable LLM tree-search agents on Temporal', ...Object.values(COMMANDS).map((c) => c.help)].join('\n\n');

const out = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The `grove` command line. Every failure is one line on stderr: usage mistakes exit 2,
 * anything else exits 1; a command may return its own exit code (`grove run` / `result`: 3 for
 * a run that finished without a solution).
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      out(HELP);
      return 0;
    }
    const entry = COMMANDS[command];
    if (!entry) throw new UsageError(`unknown command "${command}" (commands: ${Object.keys(COMMANDS).join(', ')}, help)`);
    const code = await entry.run(args, { out });
    return typeof code === 'number' ? code : 0;
  } catch (err) {
    const usage = err instanceof UsageError || err instanceof GroveInputError;
    const known = usage || err instanceof LlmConfigError || err instanceof TemporalCliNotFoundError || err instanceof StoreUnavailableError || err instanceof StoreConfigError;
    process.stderr.write(`grove: ${known ? (err as Error).message : describeFailure(err)}\n`);
    return usage ? 2 : 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
