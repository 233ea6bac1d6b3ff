import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The code in grove's docs, as a reader copies it: every fenced block of a markdown file, with
 * the line it starts on, its language and the marker (if any) of the HTML comment right before
 * its fence (`<!-- snippet: continues -->`). Used by test/unit/docs/snippets.test.ts to type-check,
 * parse and validate what the docs show.
 */
export interface Snippet {
  /** The markdown file, relative to the repository (`docs/api/worker.md`). */
  file: string;
  /** The 1-based line of the snippet's first code line in that file. */
  line: number;
  /** The fence's language, lower-cased (`ts`, `js`, `json`, `sh`, ... or `` for none). */
  lang: string;
  code: string;
  /** The marker of a `<!-- snippet: MARKER -->` comment right before the fence. */
  marker?: string;
}

export type SnippetKind = 'ts' | 'js' | 'json' | 'shell' | 'other';

const KINDS: Record<string, SnippetKind> = {
  ts: 'ts',
  typescript: 'ts',
  js: 'js',
  javascript: 'js',
  json: 'json',
  sh: 'shell',
  bash: 'shell',
  shell: 'shell',
};

export const snippetKind = (s: Snippet): SnippetKind => KINDS[s.lang] ?? 'other';

/** The fenced code blocks of a markdown file (` ``` ` or `~~~`, with their language). */
export function extractSnippets(root: string, file: string, text = readFileSync(join(root, file), 'utf8')): Snippet[] {
  const lines = text.split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)[^`]*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`).test(lines[end])) end++;
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = before >= 0 ? /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/.exec(lines[before])?.[1] : undefined;
    const code = lines
      .slice(i + 1, end)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
      .join('\n');
    snippets.push({ file, line: i + 2, lang: lang.toLowerCase(), code, ...(marker !== undefined ? { marker } : {}) });
    i = end;
  }
  return snippets;
}

/**
 * How a consumer's imports resolve, mapped to this repository's sources: each entry of
 * package.json's "exports" whose types are `./dist/X.d.ts` stands for `./X.ts` (tsconfig.build
 * compiles `.` into `dist`), e.g. `grove-agents/worker` → `workers/index.ts`.
 */
export function packagePaths(root: string): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
  const paths: Record<string, string[]> = {};
  for (const [key, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'object' && target !== null ? (target as { types?: string }).types : undefined;
    if (!types) continue;
    const source = join(root, types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'));
    if (!existsSync(source)) throw new Error(`package.json exports "${key}": its source ${relative(root, source)} does not exist`);
    paths[key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`] = [source];
  }
  return paths;
}

/** A program-wide file: the code of one or more snippets, and where each of its lines came from. */
export interface SnippetFile {
  name: string;
  code: string;
  /** Line i (0-based) of `code` is line `origin[i].line` of `origin[i].file`. */
  origin: { file: string; line: number }[];
}

/** `file:line` for a 0-based line of a snippet file. */
export const originOf = (f: SnippetFile, line: number) => {
  const o = f.origin[Math.min(line, f.origin.length - 1)];
  return `${o.file}:${o.line}`;
};

/**
 * The ts/js snippets as files of a consumer's project in `dir`: TypeScript as ES modules (`.mts`:
 * top-level `await` allowed), JavaScript with `import`/`export` as `.mjs`, other JavaScript as
 * CommonJS (`.cjs`). A snippet marked `continues` is appended to the ts/js snippet before it on
 * the same page; `problems` says when there is none.
 */
export function snippetFiles(dir: string, snippets: Snippet[]): { files: SnippetFile[]; problems: { file: string; line: number; message: string }[] } {
  const files: SnippetFile[] = [];
  const problems: { file: string; line: number; message: string }[] = [];
  let previous: { page: string; file: SnippetFile } | undefined;
  for (const s of snippets) {
    const kind = snippetKind(s);
    if (kind !== 'ts' && kind !== 'js') continue;
    const origin = s.code.split('\n').map((_, i) => ({ file: s.file, line: s.line + i }));
    if (s.marker === 'continues') {
      if (previous?.page !== s.file) problems.push({ file: s.file, line: s.line, message: 'marked "continues", but no ts/js snippet comes before it on this page' });
      else {
        previous.file.code += `\n${s.code}`;
        previous.file.origin.push(...origin);
      }
      continue;
    }
    const commonJs = kind === 'js' && !/^\s*(import|export)\s/m.test(s.code);
    const extension = kind === 'ts' ? 'mts' : commonJs ? 'cjs' : 'mjs';
    const file: SnippetFile = { name: join(dir, `${s.file.replace(/[/:]/g, '__')}-L${s.line}.${extension}`), code: s.code, origin };
    files.push(file);
    previous = { page: s.file, file };
  }
  return { files, problems };
}

/**
 * Type-checks snippet files as files of a consumer's project (Node 20, `module: nodenext`,
 * strict; JavaScript checked too), whose imports of `grove-agents[/…]` resolve to this
 * repository's sources. Only the snippets' own diagnostics are returned: grove's sources are
 * type-checked by `npm test`'s tsc, and its published declarations by test/integration/package.test.ts.
 */
export function typeCheckSnippets(root: string, files: SnippetFile[]): { file: SnippetFile; line: number; message: string }[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    esModuleInterop: true,
    allowJs: true,
    checkJs: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    baseUrl: root,
    paths: packagePaths(root),
  };
  const byName = new Map(files.map((f) => [f.name, f]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => byName.has(name) || fileExists.call(host, name);
  host.readFile = (name) => byName.get(name)?.code ?? readFile.call(host, name);
  host.getSourceFile = (name, version, onError, create) => {
    const f = byName.get(name);
    return f ? ts.createSourceFile(name, f.code, version, true) : getSourceFile.call(host, name, version, onError, create);
  };
  const program = ts.createProgram({ rootNames: files.map((f) => f.name), options, host });
  const found: { file: SnippetFile; line: number; message: string }[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const f = diagnostic.file && byName.get(diagnostic.file.fileName);
    const text = `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    if (!diagnostic.file) found.push({ file: files[0], line: 0, message: `(no file) ${text}` });
    else if (f) found.push({ file: f, line: diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line, message: text });
  }
  return found;
}

/** The `await`s of a script's top level (not inside a function), as 0-based lines. */
export function topLevelAwaits(code: string): number[] {
  const source = ts.createSourceFile('snippet.js', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const lines: number[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return;
    if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier)) {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return lines;
}

/**
 * The value of an expression made of literals only (objects, arrays, strings, numbers, booleans,
 * null, negative numbers), or `undefined` when any part is computed.
 */
export function literalValue(node: ts.Expression): unknown {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) return -Number(node.operand.text);
  if (ts.isParenthesizedExpression(node)) return literalValue(node.expression);
  if (ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map((e) => literalValue(e));
    return items.some((i) => i === undefined) ? undefined : items;
  }
  if (ts.isObjectLiteralExpression(node)) {
    const value: Record<string, unknown> = {};
    for (const p of node.properties) {
      if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return undefined;
      const v = literalValue(p.initializer);
      if (v === undefined) return undefined;
      value[p.name.text] = v;
    }
    return value;
  }
  return undefined;
}

/**
 * The runs a snippet starts with literal input: `x.run('kind', { ... })` / `x.start('kind', { ... })`
 * whose input is all literals (0-based lines).
 */
export function literalRunInputs(code: string): { line: number; kind: string; input: unknown }[] {
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: { line: number; kind: string; input: unknown }[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['run', 'start'].includes(node.expression.name.text) &&
      node.arguments.length >= 2 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const input = literalValue(node.arguments[1]);
      if (input !== undefined) found.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line, kind: node.arguments[0].text, input });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The words of a shell command line, as a POSIX shell splits them (quotes group, a backslash
 * escapes), cut into commands at `;`, `&&`, `||` and `|`; a `#` comment ends the line.
 */
export function shellCommands(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | null = null;
  const end = () => {
    if (word !== null) commands[commands.length - 1].push(word);
    word = null;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      word = (word ?? '') + line.slice(i + 1, close < 0 ? undefined : close);
      i = close < 0 ? line.length : close;
    } else if (c === '\\' && i + 1 < line.length) word = (word ?? '') + line[++i];
    else if (c === '#' && word === null) break;
    else if (/\s/.test(c)) end();
    else if (c === ';' || c === '|' || (c === '&' && line[i + 1] === '&')) {
      end();
      if (line[i + 1] === c) i++;
      commands.push([]);
    } else word = (word ?? '') + c;
  }
  end();
  return commands.filter((c) => c.length > 0);
}
