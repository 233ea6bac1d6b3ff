import { transform } from 'sucrase';

/**
 * TypeScript → JavaScript for the sandbox. Sucrase only strips types (no bundling, no
 * down-levelling) and keeps every line where it was, so an error's line number in the output is
 * the line the model wrote. A type error is not a sandbox error: like `tsx`, types are not checked.
 *
 * @example
 * transpileTs('const x: number = 1;\nthrow new Error("x")').code   // line 2 still throws
 */
export function transpileTs(source: string, file = 'solution.ts', typescript = true): { code: string } | { error: { kind: 'syntax'; message: string; line?: number } } {
  // A module's `export`s become CommonJS assignments: the sandbox runs scripts, where a
  // declaration is a global the tests can find (`export function add` stays `add`).
  const modules = /^\s*(?:export|import)\b/m.test(source);
  if (!typescript && !modules) return { code: source };
  try {
    const transforms: Array<'typescript' | 'imports'> = [...(typescript ? ['typescript' as const] : []), ...(modules ? ['imports' as const] : [])];
    return { code: transform(source, { transforms, disableESTransforms: true, filePath: file }).code };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const line = /\((\d+):\d+\)/.exec(message);
    return { error: { kind: 'syntax', message: `SyntaxError: ${message}`, ...(line ? { line: Number(line[1]) } : {}) } };
  }
}
