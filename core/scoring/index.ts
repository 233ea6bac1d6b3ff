export { type Scoring, ScoringSchema, uct, thompsonSampling } from './scoring';
export { gammaSample, betaSample } from './distributions';
export { scoreNode, valueUct } from './score-node';
