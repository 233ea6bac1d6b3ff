export type { TreeNode } from './tree-node';
export { SampleTree, type ExpandOptions, type BackpropagateOptions, type FromJsonOptions } from './sample-tree';
