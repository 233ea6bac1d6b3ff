/** A worker for the examples serves grove's workflows and the examples' workflows. */
export * from '../workflows';
export * from './workflows';
