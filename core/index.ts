/**
 * grove's deterministic core: pure, workflow-safe code (relative imports, zod and re2js only).
 * Everything here can run inside a Temporal workflow and in plain unit tests alike.
 */
export * from './errors';
export * from './failures';
export * from './random';
export * from './tree';
export * from './conversation';
export * from './scoring';
export * from './select';
export * from './format-tree';
export * from './feedback';
export * from './budget';
export * from './schemas/errors';
export * from './schemas/tree';
export * from './schemas/retry-config';
export * from './schemas/messages';
export * from './hash/canonical-json';
export * from './hash/sha256';
export * from './schemas/steering';
export * from './steering/rewind-tree';
export * from './session/message-tree';
export * from './verdicts/verdict';
export * from './verdicts/describe-verdict';
