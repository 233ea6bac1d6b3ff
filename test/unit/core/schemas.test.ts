import { z } from 'zod';
import {
  FEEDBACK_TEMPLATE,
  formatZodError,
  InvalidConfigError,
  parseWith,
  retryConfig,
  RetryConfigSchema,
  thompsonSampling,
  uct,
} from '../../../core';

describe('RetryConfig', () => {
  it("has the seeds' defaults", () => {
    expect(retryConfig()).toEqual({
      retries: 0,
      calls: 0,
      maxRetries: 10,
      maxCalls: 99,
      retryDelayMs: 0,
      nSamples: 1,
      scoring: uct(),
      ordering: 'postorder',
      feedbackInplace: false,
      feedbackTemplate: FEEDBACK_TEMPLATE,
      temperature: 0.7,
      catchErrors: false,
    });
  });

  it('keeps given values and parses scoring shorthands', () => {
    const c = retryConfig({ maxRetries: 0, scoring: 'thompson', ordering: 'preorder', temperature: 0 });
    expect(c).toMatchObject({ maxRetries: 0, scoring: thompsonSampling(), ordering: 'preorder', temperature: 0, maxCalls: 99 });
  });

  it('names the field in errors', () => {
    expect(() => retryConfig({ maxRetries: -1 })).toThrow(InvalidConfigError);
    expect(() => retryConfig({ maxRetries: -1 })).toThrow('invalid input: config.maxRetries: Too small: expected number to be >=0');
    expect(() => retryConfig({ scoring: { kind: 'uct', exploration: -2 } })).toThrow(/config\.scoring\.exploration: Too small/);
    expect(() => retryConfig({ scoring: 'ucb' as never })).toThrow(`config.scoring: unknown scoring "ucb": expected 'uct' or 'thompson'`);
    expect(() => retryConfig({ ordering: 'inorder' as never })).toThrow(/config\.ordering: /);
    expect(() => retryConfig({ nSamples: 0 })).toThrow(/config\.nSamples: Too small/);
  });

  it('rejects unknown keys by name (strict)', () => {
    expect(() => retryConfig({ max_retries: 3 } as never)).toThrow('invalid input: config: Unrecognized key: "max_retries"');
  });

  it('requires {{feedback}} in the template', () => {
    expect(() => retryConfig({ feedbackTemplate: 'Feedback: {{fb}}' })).toThrow(
      'invalid input: config.feedbackTemplate: must contain the {{feedback}} placeholder',
    );
    expect(retryConfig({ feedbackTemplate: 'FB: {{feedback}}' }).feedbackTemplate).toBe('FB: {{feedback}}');
  });

  it('exposes the zod schema for JSON Schema generation and safeParse', () => {
    expect(RetryConfigSchema.safeParse({ calls: 'x' }).success).toBe(false);
  });
});

describe('formatZodError', () => {
  it('joins every issue on one line with full paths', () => {
    const schema = z.object({ a: z.number(), list: z.array(z.object({ 'odd key': z.string() })) });
    const error = schema.safeParse({ a: 'x', list: [{ 'odd key': 'ok' }, { 'odd key': 1 }] }).error!;
    expect(formatZodError(error, 'input')).toBe(
      'invalid input: input.a: Invalid input: expected number, received string; ' +
        'input.list[1]["odd key"]: Invalid input: expected string, received number',
    );
  });

  it('uses the root name alone for top-level issues', () => {
    expect(formatZodError(z.string().safeParse(1).error!, 'x')).toBe('invalid input: x: Invalid input: expected string, received number');
  });

  it('parseWith throws InvalidConfigError with the zod error as cause', () => {
    try {
      parseWith(z.number(), 'no', 'n');
      throw new Error('should have thrown');
    } catch (e) {
      expect(InvalidConfigError.isInstance(e)).toBe(true);
      expect((e as Error).message).toBe('invalid input: n: Invalid input: expected number, received string');
      expect((e as Error).cause).toBeInstanceOf(z.ZodError);
    }
  });
});
