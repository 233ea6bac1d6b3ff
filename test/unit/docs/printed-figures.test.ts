import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_MODEL_SIZES } from '../../../client/local/local-model-file';

/** The docs' figures are the ones the program prints: the local model's sizes come from the constant the download message uses. */
const ROOT = join(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

test('README and docs/models.md give the local model the sizes grove prints when it fetches it', () => {
  const readme = read('README.md');
  expect(readme).toContain(`a ${LOCAL_MODEL_SIZES.download} download, a ${LOCAL_MODEL_SIZES.file} model file`);
  expect(read('docs/models.md')).toContain(`Q4_1 GGUF, ${LOCAL_MODEL_SIZES.file}`);
  // No other size for it anywhere in those pages.
  const sizes = [...readme.matchAll(/\b(\d+) MB\b/g)].map((m) => `${m[1]} MB`).filter((s) => /^9\d MB$/.test(s));
  expect(new Set(sizes)).toEqual(new Set([LOCAL_MODEL_SIZES.download, LOCAL_MODEL_SIZES.file]));
});
