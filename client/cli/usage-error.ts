import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake in how grove was invoked; printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `util.parseArgs` with grove's error style: an unknown option or a missing value becomes a
 * UsageError naming the command and the option.
 */
export function parseCommandArgs<O extends Options>(command: string, args: string[], options: O, positionals = 0): ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: boolean }>> {
  try {
    const parsed = parseArgs({ args: joinNegativeValues(args, options), strict: true, options, allowPositionals: positionals > 0 });
    if (parsed.positionals.length > positionals) {
      throw new UsageError(`${command}: unexpected argument "${parsed.positionals[positionals]}"`);
    }
    return parsed;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const message = (err as Error).message.replace(/\. To specify a positional argument.*$/s, '').replace(/'/g, '"');
    throw new UsageError(`${command}: ${message}`);
  }
}

/**
 * `--node -1` as `--node=-1`: a string option's value that is a negative number is the value,
 * not an option (util.parseArgs would call it ambiguous), so the command's own check names what
 * is wrong with it.
 */
function joinNegativeValues(args: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = /^--([^=]+)$/.exec(args[i])?.[1];
    if (name && options[name]?.type === 'string' && /^-\d/.test(args[i + 1] ?? '')) out.push(`${args[i]}=${args[++i]}`);
    else out.push(args[i]);
  }
  return out;
}

/** A numeric option, or a UsageError naming it. */
export function numberOption(command: string, name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`${command}: --${name} must be a number, got "${value}"`);
  return n;
}
