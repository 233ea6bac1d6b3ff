import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { COMMANDS } from '../../../client/cli/command-table';
import { RUN_KINDS, type RunKindName } from '../../../client/run-kinds';
import { formatIssuePath } from '../../../core/schemas/errors';
import { ROOT } from '../../support/run-cli';
import {
  extractSnippets,
  literalRunInputs,
  shellCommands,
  snippetFiles,
  snippetKind,
  topLevelAwaits,
  typeCheckSnippets,
  type Snippet,
} from '../../support/doc-snippets';

/**
 * Docs that run: every fenced block of README.md, docs/*.md and docs/api/*.md in a language we
 * can check is checked as a reader would use it —
 *
 * - `ts` / `js`: type-checked as files of a consumer's project whose imports of `grove-agents`,
 *   `grove-agents/worker`, ... resolve (through package.json's "exports") to this repository's
 *   sources: an API that does not exist, a wrong argument or a name the snippet never declares
 *   fails, naming the markdown file and line. TypeScript snippets are ES modules (a `.mts` file:
 *   top-level `await` is allowed); JavaScript with `require` is CommonJS (`.cjs`: top-level
 *   `await` is a SyntaxError there, so it fails); a run started with literal input
 *   (`grove.run('agent', { ... })`) has that input validated by the kind's zod schema too.
 * - `json`: parsed; one marked `<!-- snippet: input KIND -->` is validated as KIND's run input.
 * - `sh` / `bash`: each `grove …` command names a command of the CLI's command table
 *   (client/cli/command-table.ts), flags its help lists and, for `run`, a run kind; an `--input`
 *   file exists and is valid input; `npm run X` names a script of package.json; no command
 *   installs `grove-agents` from the npm registry, where it is not published.
 *
 * A snippet that only makes sense after the one before it on the same page may say so with
 * `<!-- snippet: continues -->` right before its fence: the two are checked as one file (a page
 * that builds one program in steps). There is no marker to skip a snippet: a snippet that does not
 * compile is fixed, in the docs or in the code.
 */
const markdownIn = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `${dir}/${f}`);
const DOCS = ['README.md', ...markdownIn('docs'), ...markdownIn('docs/api')];

/** The markers a snippet may carry, and why each is allowed (see above). */
const MARKERS = new Set(['continues']);
const inputMarker = (marker: string | undefined) => /^input ([\w-]+)$/.exec(marker ?? '')?.[1];

/** grove-agents is installed from this repository (README, "Install"), not from the registry. */
const UNPUBLISHED = 'grove-agents';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; scripts: Record<string, string> };

interface Problem {
  file: string;
  line: number;
  message: string;
}

/** The input a run of `kind` gets, checked by its schema: the problems, one line each. */
function inputProblems(kind: string, input: unknown): string[] {
  if (!Object.prototype.hasOwnProperty.call(RUN_KINDS, kind)) return [`"${kind}" is not a run kind (${Object.keys(RUN_KINDS).join(', ')})`];
  const parsed = RUN_KINDS[kind as RunKindName].schema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `invalid ${kind} input: ${formatIssuePath('', i.path).replace(/^\./, '') || '(input)'}: ${i.message}`);
}

function readInputFile(kind: string, path: string): string[] {
  if (/^<.*>$/.test(path) || path === '-') return [];
  const full = join(ROOT, path);
  if (!existsSync(full)) return [`--input ${path}: no such file in the repository`];
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(full, 'utf8'));
  } catch (err) {
    return [`--input ${path}: ${(err as Error).message}`];
  }
  return inputProblems(kind, value).map((p) => `--input ${path}: ${p}`);
}

/** What is wrong with one `grove …` command line (its words after `grove`). */
function groveCommandProblems(args: string[]): string[] {
  const words = args.map((w) => w.replace(/^\[+/, '').replace(/\]+$/, '')).filter(Boolean);
  const [command, ...rest] = words;
  if (command === undefined || ['--version', '-V', 'version'].includes(command)) return [];
  if (['help', '--help', '-h'].includes(command)) {
    const topic = rest[0];
    return topic && !topic.startsWith('-') && !/^<.*>$/.test(topic) && !COMMANDS[topic] && topic !== 'connect' ? [`grove help ${topic}: no such command`] : [];
  }
  if (/^<.*>$/.test(command)) return [];
  const entry = COMMANDS[command];
  if (!entry) return [`grove ${command}: no such command (commands: ${Object.keys(COMMANDS).join(', ')})`];
  const problems: string[] = [];
  for (const word of rest) {
    if (!word.startsWith('--')) continue;
    const flag = word.split('=')[0];
    if (flag === '--help') continue;
    if (!new RegExp(`${flag}(?![\\w-])`).test(entry.help)) problems.push(`grove ${command} ${flag}: \`grove ${command} --help\` lists no such option`);
  }
  const inputAt = rest.findIndex((w) => w === '--input' || w.startsWith('--input='));
  const inputPath = inputAt < 0 ? undefined : rest[inputAt].includes('=') ? rest[inputAt].slice('--input='.length) : rest[inputAt + 1];
  const sub = rest[0];
  if (command === 'run' || command === 'schema') {
    if (sub !== undefined && !/^<.*>$/.test(sub) && !Object.prototype.hasOwnProperty.call(RUN_KINDS, sub)) {
      problems.push(`grove ${command} ${sub}: not a run kind (${Object.keys(RUN_KINDS).join(', ')})`);
    } else if (command === 'run' && inputPath) problems.push(...readInputFile(sub, inputPath));
  } else {
    // A command whose every usage line names a subcommand (`grove session send|close`) takes one of them.
    const usage = entry.help.split('\n').filter((l) => l.startsWith(`grove ${command}`));
    const subs = usage.map((l) => l.split(/\s+/)[2] ?? '');
    if (subs.every((s) => /^[a-z][a-z|-]*$/.test(s))) {
      const allowed = subs.flatMap((s) => s.split('|'));
      if (!sub || !allowed.includes(sub)) problems.push(`grove ${command} ${sub ?? ''}: expected one of ${allowed.join(', ')}`);
    }
    if (command === 'session' && sub === 'send' && inputPath) problems.push(...readInputFile('session', inputPath));
  }
  return problems;
}

function shellProblems(s: Snippet): Problem[] {
  const problems: Problem[] = [];
  s.code.split('\n').forEach((text, i) => {
    for (const words of shellCommands(text)) {
      const at = (message: string) => problems.push({ file: s.file, line: s.line + i, message });
      const [first, ...args] = words[0] === 'npx' ? words.slice(1) : words;
      if (first === 'grove') groveCommandProblems(args).forEach(at);
      if (first === 'npm' && (args[0] === 'run' || args[0] === 'run-script') && args[1] && !PACKAGE.scripts[args[1]]) at(`npm run ${args[1]}: package.json has no such script`);
      if (first === 'npm' && ['install', 'i', 'add'].includes(args[0] ?? '')) {
        for (const a of args.slice(1)) {
          if (a === UNPUBLISHED || a.startsWith(`${UNPUBLISHED}@`)) at(`npm ${args[0]} ${a}: ${UNPUBLISHED} is not published on npm; install it from this repository (README, "Install")`);
          const tarball = /^(?:.*\/)?grove-agents-(.+)\.tgz$/.exec(a);
          if (tarball && tarball[1] !== PACKAGE.version) at(`${a}: npm pack writes grove-agents-${PACKAGE.version}.tgz`);
        }
      }
    }
  });
  return problems;
}

function jsonProblems(s: Snippet): Problem[] {
  let value: unknown;
  try {
    value = JSON.parse(s.code);
  } catch (err) {
    return [{ file: s.file, line: s.line, message: `JSON: ${(err as Error).message}` }];
  }
  const kind = inputMarker(s.marker);
  return kind ? inputProblems(kind, value).map((message) => ({ file: s.file, line: s.line, message })) : [];
}

/**
 * Every problem of the snippets of `docs`: one type-check of all their code at once (one
 * TypeScript program, created once), then the per-snippet checks.
 */
function checkDocs(snippets: Snippet[]): { problems: Problem[]; checked: Map<string, number> } {
  const problems: Problem[] = [];
  const checked = new Map<string, number>();
  const count = (s: Snippet) => checked.set(s.file, (checked.get(s.file) ?? 0) + 1);
  for (const s of snippets) {
    const kind = snippetKind(s);
    if (kind === 'other') continue;
    count(s);
    if (s.marker !== undefined && !MARKERS.has(s.marker) && !inputMarker(s.marker)) {
      problems.push({ file: s.file, line: s.line - 1, message: `unknown snippet marker "${s.marker}" (known: ${[...MARKERS].join(', ')}, input KIND)` });
    }
    if (kind === 'shell') problems.push(...shellProblems(s));
    if (kind === 'json') problems.push(...jsonProblems(s));
  }
  const { files, problems: joined } = snippetFiles(join(ROOT, '.doc-snippets'), snippets);
  problems.push(...joined);
  for (const f of files) {
    if (f.name.endsWith('.cjs')) {
      for (const line of topLevelAwaits(f.code)) {
        problems.push({ ...f.origin[line], message: 'top-level await in CommonJS (a SyntaxError in Node): wrap it in an async function' });
      }
    }
    for (const { line, kind, input } of literalRunInputs(f.code)) {
      problems.push(...inputProblems(kind, input).map((message) => ({ ...f.origin[line], message })));
    }
  }
  for (const { file, line, message } of typeCheckSnippets(ROOT, files)) problems.push({ ...file.origin[Math.min(line, file.origin.length - 1)], message });
  return { problems, checked };
}

/** Deliberately broken snippets on a page of their own: the checks must catch each. */
const BROKEN = 'test:broken.md';
const broken: Snippet[] = [
  { file: BROKEN, line: 1, lang: 'ts', code: "import { GroveClient } from 'grove-agents';\nawait GroveClient.connectTo();" },
  { file: BROKEN, line: 10, lang: 'ts', code: "import { aiGenerate } from 'grove-agents/workflow';\naiGenerate(42);" },
  { file: BROKEN, line: 20, lang: 'js', code: "const { GrovePlugin } = require('grove-agents/worker');\n\nawait Promise.resolve(new GrovePlugin());" },
  { file: BROKEN, line: 30, lang: 'ts', code: 'const later = grove;' },
  { file: BROKEN, line: 40, lang: 'ts', code: "import { GroveClient } from 'grove-agents';\nconst grove = await GroveClient.connect();\nawait grove.run('agent', { prompt: 'x', algorithm: 'dfs', tools: [] });" },
  { file: BROKEN, line: 50, lang: 'sh', code: 'npx grove run airetry --inptu x.json; grove frobnicate\nnpm install grove-agents && npm run nope' },
  { file: BROKEN, line: 60, lang: 'json', code: '{ "prompt": "x" }', marker: 'input airetry' },
  { file: BROKEN, line: 70, lang: 'json', code: '{ "prompt": "x", }' },
  { file: BROKEN, line: 80, lang: 'ts', code: 'await grove.close();\nmissing();', marker: 'continues' },
  { file: BROKEN, line: 90, lang: 'sh', code: 'grove --version', marker: 'skip' },
];

let result: ReturnType<typeof checkDocs>;
beforeAll(() => {
  result = checkDocs([...DOCS.flatMap((f) => extractSnippets(ROOT, f)), ...broken]);
});
const problemsOf = (file: string) =>
  result.problems
    .filter((p) => p.file === file)
    .sort((a, b) => a.line - b.line)
    .map((p) => `${p.file}:${p.line}: ${p.message}`);

test.each(DOCS)('every snippet of %s type-checks, parses and names real commands', (file) => {
  expect(problemsOf(file)).toEqual([]);
});

test("the README and each entry point's page have code that is checked", () => {
  // "One page per entry point, each with a runnable example" (README).
  const pages = ['README.md', ...markdownIn('docs/api').filter((f) => f !== 'docs/api/README.md')];
  expect(pages.filter((f) => !result.checked.get(f))).toEqual([]);
});

test('the checks catch a missing API, wrong arguments, an undeclared name, top-level await in CommonJS, bad input, unknown commands and flags', () => {
  const found = problemsOf(BROKEN).join('\n');
  expect(found).toMatch(/test:broken\.md:2: TS\d+: Property 'connectTo' does not exist/);
  expect(found).toMatch(/test:broken\.md:11: TS2345: Argument of type 'number'/);
  expect(found).toMatch(/test:broken\.md:22: top-level await in CommonJS/);
  expect(found).toMatch(/test:broken\.md:30: TS2304: Cannot find name 'grove'/);
  expect(found).toMatch(/test:broken\.md:42: invalid agent input: algorithm/);
  expect(found).toMatch(/test:broken\.md:50: grove run --inptu: .*no such option/);
  expect(found).toMatch(/test:broken\.md:50: grove frobnicate: no such command/);
  expect(found).toMatch(/test:broken\.md:51: npm install grove-agents: grove-agents is not published on npm/);
  expect(found).toMatch(/test:broken\.md:51: npm run nope: package.json has no such script/);
  expect(found).toMatch(/test:broken\.md:60: invalid airetry input: checks/);
  expect(found).toMatch(/test:broken\.md:70: JSON: /);
  expect(found).toMatch(/test:broken\.md:81: TS2304: Cannot find name 'missing'/); // continues the snippet of line 40, where `grove` is declared
  expect(found).not.toMatch(/test:broken\.md:80:/);
  expect(found).toMatch(/test:broken\.md:89: unknown snippet marker "skip"/);
});

test('fences, markers and shell words are read as a reader sees them', () => {
  const page = ['# t', '', '<!-- snippet: continues -->', '', '```TypeScript', 'a();', '```', '  ~~~sh', '  grove help', '  ~~~', '```', 'plain', '```'].join('\n');
  expect(extractSnippets(ROOT, 'page.md', page)).toEqual([
    { file: 'page.md', line: 6, lang: 'typescript', code: 'a();', marker: 'continues' },
    { file: 'page.md', line: 9, lang: 'sh', code: 'grove help' },
    { file: 'page.md', line: 12, lang: '', code: 'plain' },
  ]);
  expect(shellCommands(`npx grove tools --mcp 'everything=npx -y x'   # a comment; not a command`)).toEqual([['npx', 'grove', 'tools', '--mcp', 'everything=npx -y x']]);
  expect(shellCommands('grove a; grove b && grove "c d" | grep x')).toEqual([['grove', 'a'], ['grove', 'b'], ['grove', 'c d'], ['grep', 'x']]);
  expect(topLevelAwaits('async function main() { await x; }\nawait y;\nfor await (const z of w) {}')).toEqual([1, 2]);
  expect(literalRunInputs("g.run('agent', { a: [1, -2, 'x'], b: { c: null } }); g.run('generate', input);")).toEqual([{ line: 0, kind: 'agent', input: { a: [1, -2, 'x'], b: { c: null } } }]);
});

/**
 * The examples that need no Temporal server run too, as a consumer runs them (`node example.js`,
 * `grove-agents` loaded from the sources): they exit 0 and print what their comments say
 * (`console.log(x); // Echo: hi`). The others start runs and workers: the package test runs
 * test/fixtures/consumer, the same worker, tool and workflow, against a dev server.
 */
const RUNNABLE = ['docs/api/core.md', 'docs/api/model-server.md'];

test.each(RUNNABLE)('the example of %s runs and prints what its comments say', async (page) => {
  const [example] = extractSnippets(ROOT, page).filter((s) => snippetKind(s) === 'js');
  const dir = mkdtempSync(join(tmpdir(), 'grove-doc-example-'));
  try {
    writeFileSync(join(dir, 'example.js'), example.code);
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', 'tsx/cjs', '-r', join(ROOT, 'test', 'support', 'grove-agents-from-source.js'), join(dir, 'example.js')], {
      cwd: ROOT,
      env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules'), NODE_OPTIONS: '' },
      timeout: 60_000,
    });
    const promised = [...example.code.matchAll(/console\.log\(.*\);\s*\/\/\s*(.+)$/gm)].map((m) => m[1].replace(/^'(.*)'$/, '$1'));
    expect(promised.length).toBeGreaterThan(0);
    for (const text of promised) expect(stdout.split('\n')).toContain(text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
