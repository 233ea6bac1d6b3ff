export { type ConversationDelta, ConversationDeltaSchema, materialize, conversationLength, deltaBetween, deltaLength } from './delta';
export { renderTemplate } from './template';
export { deepEqual } from './deep-equal';
export { fitToWindow, estimateTokens, ELIDED_TOOL_OUTPUT, type FitResult } from './fit-window';
