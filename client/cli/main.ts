import { version } from '../../runtime/version';
import { COMMANDS, CONNECT_HELP, type CommandIo } from './command-table';
import { UsageError } from './usage-error';
import { shutdownGroveTelemetry } from '../../activities/telemetry/telemetry-registry';

export { version };

const out = (line: string) => process.stdout.write(`${line}\n`);

/** Errors whose message is the whole story (a setting to fix, a usage mistake): printed as they are. */
const KNOWN = new Set([
  'UsageError',
  'GroveInvalidInput',
  'LlmConfigError',
  'TemporalCliNotFoundError',
  'TemporalConfigError',
  'TemporalUnreachableError',
  'StoreUnavailableError',
  'StoreConfigError',
  'PostgresNotFoundError',
  'PolicyConfigError',
  'McpConfigError',
  'GroveInvalidToolDefinition',
  'TelemetryConfigError',
  'GroveEngineMissing',
]);
const USAGE = new Set(['UsageError', 'GroveInvalidInput']);

function helpText(): string {
  return [
    `grove ${version()} — durable LLM tree-search agents on Temporal`,
    'usage: grove <command> [options]     grove <command> --help     grove --version',
    ...Object.values(COMMANDS).map((c) => c.help),
    CONNECT_HELP,
  ].join('\n\n');
}

/**
 * The `grove` command line. Every failure is one line on stderr: usage mistakes exit 2,
 * anything else exits 1 (a command may exit 3 for a finished run without a solution).
 *
 * @example
 * process.exit(await main(['run', 'generate', '--prompt', 'Say hi!']));
 */
export async function main(argv: string[], io: CommandIo = { out }): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === '--version' || command === '-V' || command === 'version') {
      io.out(version());
      return 0;
    }
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      const topic = args[0];
      if (topic === 'connect') io.out(CONNECT_HELP);
      else if (topic && COMMANDS[topic]) io.out(COMMANDS[topic].help);
      else if (topic) throw new UsageError(`help: unknown command "${topic}" (commands: ${Object.keys(COMMANDS).join(', ')}, connect)`);
      else io.out(helpText());
      return 0;
    }
    const entry = COMMANDS[command];
    if (!entry) throw new UsageError(`unknown command "${command}" (commands: ${Object.keys(COMMANDS).join(', ')}; grove --help)`);
    if (args.includes('--help') || args.includes('-h')) {
      io.out(entry.help);
      return 0;
    }
    const code = await (await entry.load())(args, io);
    return typeof code === 'number' ? code : 0;
  } catch (err) {
    const name = (err as Error)?.name;
    const message = KNOWN.has(name) ? (err as Error).message : (require('./describe-failure') as typeof import('./describe-failure')).describeFailure(err);
    process.stderr.write(`grove: ${message}\n`);
    return USAGE.has(name) ? 2 : 1;
  } finally {
    // Spans and metrics still batched leave before the process exits (nothing to do when telemetry is off).
    await shutdownGroveTelemetry();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
