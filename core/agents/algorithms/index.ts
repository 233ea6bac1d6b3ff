import type { Algorithm } from '../agent-options';
import { astar } from './astar';
import { beam } from './beam';
import { cot } from './cot';
import { greedy } from './greedy';
import { mcts } from './mcts';
import type { SearchAlgorithm } from './search-algorithm';

export const ALGORITHM_IMPLEMENTATIONS: Record<Algorithm, SearchAlgorithm> = { mcts, astar, greedy, beam, cot };
export type { SearchAlgorithm } from './search-algorithm';
