import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { CODE_LANGUAGES, execCodeInputSchema, type CodeLanguage, type CodeOutcome } from '../../../core/code/code-outcome';
import { parseCommandArgs, UsageError } from '../usage-error';

/** `grove exec`: runs a file in grove's sandbox and prints the outcome as JSON (exit 0 ok, 1 not ok, 2 usage). */
export async function execCommand(args: string[], io: { out: (line: string) => void }): Promise<number> {
  const { values, positionals } = parseCommandArgs('exec', args, {
    'language': { type: 'string', short: 'l' },
    'test': { type: 'string' },
    'timeout-ms': { type: 'string' },
    'memory-mb': { type: 'string' },
    'max-output': { type: 'string' },
  }, 1);
  const file = positionals[0];
  if (!file) throw new UsageError('exec: give a FILE to run (- reads stdin)');
  const language = (values.language ?? languageOf(file)) as CodeLanguage | undefined;
  if (!language || !CODE_LANGUAGES.includes(language)) throw new UsageError(`exec: --language must be one of ${CODE_LANGUAGES.join(', ')}`);
  const parsed = execCodeInputSchema.safeParse({
    language,
    code: read(file),
    testCode: values.test === undefined ? undefined : read(values.test),
    timeoutMs: int('--timeout-ms', values['timeout-ms']),
    memoryMb: int('--memory-mb', values['memory-mb']),
    maxOutputChars: int('--max-output', values['max-output']),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`exec: ${issue.path.join('.') || 'input'}: ${issue.message}`);
  }
  const { execCode } = require('../../../activities/sandbox/exec-code') as typeof import('../../../activities/sandbox/exec-code');
  const outcome = named(await execCode(parsed.data), file, values.test);
  io.out(JSON.stringify(outcome, null, 2));
  if (outcome.error?.kind === 'sandbox') process.stderr.write(`grove exec: ${outcome.error.message}\n`);
  return outcome.ok ? 0 : 1;
}

/**
 * The sandbox names the code `solution.*` and the tests `tests.*`; the user gave files of their
 * own, so its error messages (and tracebacks on stderr) name those.
 */
function named(outcome: CodeOutcome, file: string, testFile: string | undefined): CodeOutcome {
  const own = (path: string | undefined) => (path === undefined || path === '-' ? undefined : basename(path));
  const rename = (text: string) => {
    let out = text;
    const code = own(file);
    const tests = own(testFile);
    if (code) out = out.replace(/\bsolution\.(?:py|js|ts)\b/g, () => code);
    if (tests) out = out.replace(/\btests\.(?:py|js|ts)\b/g, () => tests);
    return out;
  };
  return { ...outcome, stderr: rename(outcome.stderr), ...(outcome.error ? { error: { ...outcome.error, message: rename(outcome.error.message) } } : {}) };
}

function languageOf(file: string): CodeLanguage | undefined {
  if (/\.(c|m)?js$/.test(file)) return 'js';
  if (/\.(c|m)?ts$/.test(file)) return 'ts';
  if (/\.py$/.test(file)) return 'python';
  return undefined;
}

function read(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(`exec: cannot read ${path} (${(err as Error).message})`);
  }
}

function int(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`exec: ${flag} must be a whole number, got "${value}"`);
  return Number(value);
}
