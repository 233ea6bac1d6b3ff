export * from './ai-call';
export * from './airetry';
export * from './evaluate-condition';
export * from './last-output';
export * from './output-parsers';
export * from './ports';
export * from './run-call';
export * from './format-call-tree';
