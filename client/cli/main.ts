import { LlmConfigError } from '../../activities/llm/llm-config';
import { GroveInputError } from '../../core/schemas/parse-input';
import { TemporalCliNotFoundError } from '../temporal-server/cli-binary';
import { DEMO_HELP, demoCommand } from './commands/demo';
import { DEV_HELP, devCommand } from './commands/dev';
import { CANCEL_HELP, cancelCommand, PROGRESS_HELP, progressCommand, SHOW_HELP, showCommand, TREE_HELP, treeCommand } from './commands/inspect';
import { MODEL_SERVER_HELP, modelServerCommand } from './commands/model-server';
import { PROVISION_HELP, provisionCommand } from './commands/provision';
import { RUN_HELP, runCommand } from './commands/run';
import { SCHEMA_HELP, schemaCommand } from './commands/schema';
import { SETUP_HELP, setupCommand } from './commands/setup';
import { WORKER_HELP, workerCommand } from './commands/worker';
import { describeFailure } from './describe-failure';
import { UsageError } from './usage-error';

const HELP = [
  'grove — durable LLM tree-search agents on Temporal',
  '',
  DEMO_HELP,
  DEV_HELP,
  RUN_HELP,
  TREE_HELP,
  SHOW_HELP,
  PROGRESS_HELP,
  CANCEL_HELP,
  SCHEMA_HELP,
  WORKER_HELP,
  MODEL_SERVER_HELP,
  SETUP_HELP,
  PROVISION_HELP,
].join('\n\n');

const out = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The `grove` command line. Every failure is one line on stderr: usage mistakes exit 2,
 * anything else exits 1.
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'demo':
        await demoCommand(args, { out });
        break;
      case 'dev':
        await devCommand(args, { out });
        break;
      case 'run':
        await runCommand(args, { out });
        break;
      case 'tree':
        await treeCommand(args, { out });
        break;
      case 'show':
        await showCommand(args, { out });
        break;
      case 'progress':
        await progressCommand(args, { out });
        break;
      case 'cancel':
        await cancelCommand(args, { out });
        break;
      case 'schema':
        await schemaCommand(args, { out });
        break;
      case 'worker':
        await workerCommand(args);
        break;
      case 'model-server':
        await modelServerCommand(args, { out });
        break;
      case 'provision':
        await provisionCommand(args, { out });
        break;
      case 'setup':
        await setupCommand(args, { out });
        break;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        out(HELP);
        break;
      default:
        throw new UsageError(`unknown command "${command}" (commands: demo, dev, run, tree, show, progress, cancel, schema, worker, model-server, setup, provision, help)`);
    }
    return 0;
  } catch (err) {
    const usage = err instanceof UsageError || err instanceof GroveInputError;
    const known = usage || err instanceof LlmConfigError || err instanceof TemporalCliNotFoundError;
    process.stderr.write(`grove: ${known ? (err as Error).message : describeFailure(err)}\n`);
    return usage ? 2 : 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
