export { type ConversationDelta, ConversationDeltaSchema, materialize, conversationLength, deltaBetween, deltaLength } from './delta';
export { truncateConversation } from './truncate';
export { splitMultiSamples } from './split-multi-samples';
export { renderTemplate, templateVariables, removeUsedVariables } from './template';
export { deepEqual } from './deep-equal';
export { fitToWindow, estimateTokens, ELIDED_TOOL_OUTPUT, type FitResult } from './fit-window';
