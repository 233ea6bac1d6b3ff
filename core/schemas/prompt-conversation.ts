import { DEFAULT_SYSTEM_PROMPT } from './prompt-input';
import { systemMessage, userMessage, type Message } from './messages';

/**
 * The conversation a run starts from: `messages` as given, or a string `prompt` after a system
 * message (the seeds' "Act as a helpful AI assistant" unless `system` says otherwise; `null`
 * sends none).
 *
 * @example
 * promptConversation({ prompt: 'Say hi!' }) // [system 'Act as a helpful AI assistant', user 'Say hi!']
 */
export function promptConversation(input: { prompt?: string; messages?: Message[]; system?: string | null }): Message[] {
  if (input.messages) return [...input.messages];
  const system = input.system === undefined ? DEFAULT_SYSTEM_PROMPT : input.system;
  return [...(system === null ? [] : [systemMessage(system)]), userMessage(input.prompt ?? '')];
}
