import type { Client } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { GROVE_SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

const ensured = new WeakSet<Client>();

/**
 * Registers grove's search attributes on the client's namespace if they are missing. grove's
 * workflows set them, and a workflow that sets an unregistered attribute cannot make progress,
 * so the client checks once per connection before it starts runs. (The local dev server gets
 * them at start; Temporal Cloud namespaces need them added in the Cloud UI or `tcld`, and this
 * then says so.)
 *
 * @example
 * await ensureSearchAttributes(client);
 */
export async function ensureSearchAttributes(client: Client): Promise<void> {
  if (ensured.has(client)) return;
  const namespace = client.options.namespace;
  const operator = client.connection.operatorService;
  const existing = await operator.listSearchAttributes({ namespace });
  const known = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = GROVE_SEARCH_ATTRIBUTES.filter((key) => !known.has(key.name));
  if (missing.length > 0) {
    try {
      await operator.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(missing.map((key) => [key.name, encodeSearchAttributeIndexedValueType(key.type)!])),
      });
    } catch (err) {
      throw new Error(
        `namespace ${namespace} lacks grove's search attributes (${missing.map((k) => `${k.name}:${k.type}`).join(', ')}) ` +
          `and they could not be added (${(err as Error).message}); add them with \`temporal operator search-attribute create\` or in the Cloud UI`,
      );
    }
  }
  ensured.add(client);
}
