/** What the test bundle serves: grove's workflows and the examples' workflows. */
export * from '../../examples/all-workflows';
