/**
 * Standalone scripted model server for the demo and benchmarks.
 *
 *   npx tsx model-server/main.ts [--port 8787] [--host 127.0.0.1] [--seed 0] [--api-key k]... [--max-context-chars N] [--token-delay-ms N]
 *
 * Prints one line ("grove model server listening on http://127.0.0.1:8787/v1 (models: ...)")
 * and runs until SIGINT/SIGTERM.
 */
import { startModelServer } from './server';
import type { ModelServerOptions } from './types';

/**
 * Parses the command line.
 *
 * @example
 * parseArgs(['--port', '8787', '--api-key', 'k']) // { port: 8787, apiKeys: ['k'] }
 */
export function parseArgs(argv: readonly string[]): ModelServerOptions {
  const opts: ModelServerOptions = {};
  const num = (flag: string, v: string | undefined): number => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n)) throw new Error(`${flag} needs a number`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    switch (flag) {
      case '--port':
        opts.port = num(flag, value);
        i++;
        break;
      case '--seed':
        opts.seed = num(flag, value);
        i++;
        break;
      case '--max-context-chars':
        opts.maxContextChars = num(flag, value);
        i++;
        break;
      case '--token-delay-ms':
        opts.tokenDelayMs = num(flag, value);
        i++;
        break;
      case '--host':
        if (!value) throw new Error('--host needs a value');
        opts.host = value;
        i++;
        break;
      case '--api-key':
        if (!value) throw new Error('--api-key needs a value');
        opts.apiKeys = [...(opts.apiKeys ?? []), value];
        i++;
        break;
      default:
        throw new Error(`Unknown argument: ${flag}`);
    }
  }
  return opts;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const server = await startModelServer({ port: 8787, ...opts });
  console.log(`grove model server listening on ${server.baseURL} (models: ${server.models.join(', ')})`);
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
