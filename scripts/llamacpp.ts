/**
 * Prepares llama.cpp's OpenAI-compatible server for the real-model tests (`.ci/run` runs it):
 * the llama-cpp-python wheel (built from PyPI once, cached in .grove/wheels), a venv with its
 * server extras, and the local GGUF model. `--check` starts the server once and stops it.
 */
import { prepareLlamaCpp, startLlamaCppServer } from '../client/local/llamacpp-server';
import { ensureLocalModelFile } from '../client/local/local-model-file';

async function main(): Promise<void> {
  const log = (line: string) => console.log(line);
  const started = Date.now();
  prepareLlamaCpp({ log });
  await ensureLocalModelFile({ log });
  if (process.argv.includes('--check')) {
    const server = await startLlamaCppServer({ log });
    await server.stop();
  }
  console.log(`llama.cpp: ready (${Math.round((Date.now() - started) / 1000)} s)`);
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
