import { type Message, messageText } from '../schemas/messages';

/** Unicode code points, like Julia's `length(::String)` used by the original. */
function charCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * Shortens a conversation to about `maxChars` characters of text content (code points of
 * `messageText`; tool-call arguments do not count), as the seeds' `truncate_conversation`:
 * - if it already fits, or has at most 2 messages, the SAME array comes back;
 * - otherwise the last 2 messages are always kept, then earlier messages are added from the
 *   start, each only if it still fits (an oversized one is skipped, not a stop).
 * Order is preserved. The last 2 alone may exceed `maxChars`.
 *
 * @example
 * truncateConversation(longConv, 32_000);
 */
export function truncateConversation(conv: Message[], maxChars = 32000): Message[] {
  const sizes = conv.map((m) => charCount(messageText(m)));
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total <= maxChars || conv.length <= 2) return conv;
  const n = conv.length;
  let used = sizes[n - 2] + sizes[n - 1];
  const head: Message[] = [];
  for (let i = 0; i < n - 2; i++) {
    if (used + sizes[i] <= maxChars) {
      head.push(conv[i]);
      used += sizes[i];
    }
  }
  head.push(conv[n - 2], conv[n - 1]);
  return head;
}
