/** What the test bundle serves: grove's workflows, the examples' workflows, and test-only ones. */
export * from '../../examples/all-workflows';
export { apiTour } from './api-workflows';
export { randomDecisions } from './random-workflows';
export { callOversized } from './payload-workflows';
