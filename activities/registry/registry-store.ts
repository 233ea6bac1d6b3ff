import type { RegistryDescription } from '../../core/fleet/registry';
import { FLEET_RECORD_PREFIX, type MessageStore } from '../store/message-store';

const key = (fingerprint: string) => `${FLEET_RECORD_PREFIX}${fingerprint}`;

/**
 * Workers publish their registry's description in the fleet's message store, under its
 * fingerprint (content-addressed: the same fingerprint always names the same entries), so a
 * worker, `grove dev` or `grove workers` that sees another fingerprint among a queue's pollers
 * can say what differs. It is not a call: store stats do not count it and retention keeps it.
 *
 * @example
 * await publishRegistry(store, fleet.registry);
 * const theirs = await readRegistry(store, '9a8b7c6d5e4f3a2b');
 */
export async function publishRegistry(store: MessageStore, registry: RegistryDescription): Promise<void> {
  if ((await store.getCallResult(key(registry.fingerprint))) === undefined) await store.putCallResult(key(registry.fingerprint), registry);
}

export async function readRegistry(store: MessageStore, fingerprint: string): Promise<RegistryDescription | undefined> {
  return (await store.getCallResult(key(fingerprint))) as RegistryDescription | undefined;
}
