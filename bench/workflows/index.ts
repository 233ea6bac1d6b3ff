/** What benchmark workers serve: grove's workflows, the examples', and benchmark-only ones. */
export * from '../../examples/all-workflows';
export { historyChain } from './history-chain';
export { viewerTree } from './viewer-tree';
