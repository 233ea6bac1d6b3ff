import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * grove's custom search attributes: list and filter runs in the Temporal UI
 * (e.g. `GroveStatus = "failed" AND GroveKind = "airetry"`). The dev server registers them at
 * start; on another cluster `grove setup` (or `ensureSearchAttributes`) does.
 */
export const GroveKind = defineSearchAttributeKey('GroveKind', SearchAttributeType.KEYWORD);
export const GroveStatus = defineSearchAttributeKey('GroveStatus', SearchAttributeType.KEYWORD);
export const GroveCalls = defineSearchAttributeKey('GroveCalls', SearchAttributeType.INT);
export const GroveTokens = defineSearchAttributeKey('GroveTokens', SearchAttributeType.INT);
export const GroveBestScore = defineSearchAttributeKey('GroveBestScore', SearchAttributeType.DOUBLE);

export const GROVE_SEARCH_ATTRIBUTES = [GroveKind, GroveStatus, GroveCalls, GroveTokens, GroveBestScore] as const;

/** The CLI's `--search-attribute Name=Type` spelling of each attribute. */
export function searchAttributeFlags(): string[] {
  const cliType: Record<string, string> = { KEYWORD: 'Keyword', INT: 'Int', DOUBLE: 'Double', TEXT: 'Text', BOOL: 'Bool' };
  return GROVE_SEARCH_ATTRIBUTES.flatMap((key) => ['--search-attribute', `${key.name}=${cliType[key.type] ?? key.type}`]);
}
