/**
 * grove's tools for the search agents (worker side): define a tool with a zod schema, and
 * register `createToolActivities({ tools, store })` on a worker.
 */
export * from './define-tool';
export * from './tool-activities';
export * from './tool-errors';
export * from './tool-output';
