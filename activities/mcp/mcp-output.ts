import type { McpCallResult } from './mcp-types';

/**
 * The text the model sees of an MCP tool's result: its text parts, one per line. grove's
 * messages are text, so binary parts (images, audio, blob resources) are named with their type
 * and size instead of being pasted in as base64 — which would cost thousands of tokens and
 * travel through workflow history. A result with no content but `structuredContent` shows that
 * as JSON.
 *
 * @example
 * mcpResultText({ content: [{ type: 'text', text: 'Echo: hi' }] }) // 'Echo: hi'
 * mcpResultText({ content: [{ type: 'image', data: 'iVBO...', mimeType: 'image/png' }] }) // '[image/png image, 1.1 kB: not shown]'
 */
export function mcpResultText(result: McpCallResult): string {
  const parts = (result.content ?? []).map((part) => {
    switch (part.type) {
      case 'text':
        return part.text;
      case 'image':
      case 'audio':
        return `[${part.mimeType} ${part.type}, ${size(base64Bytes(part.data))}: not shown]`;
      case 'resource': {
        const resource = part.resource;
        if ('text' in resource && typeof resource.text === 'string') return resource.text;
        const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
        return `[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}, ${size(base64Bytes(blob))}: not shown]`;
      }
      case 'resource_link':
        return `[resource ${part.name}: ${part.uri}${part.description ? ` — ${part.description}` : ''}]`;
      default:
        return `[${(part as { type: string }).type} content: not shown]`;
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function size(bytes: number): string {
  return bytes < 1000 ? `${bytes} bytes` : `${(bytes / 1000).toFixed(1)} kB`;
}
