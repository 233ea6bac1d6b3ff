import { openStore, storeSettingsFromEnv } from '../../activities/store/open-store';
import type { MessageStore } from '../../activities/store/message-store';

/**
 * The message store the viewer reads node conversations from: the one the workers write,
 * configured the same way (`GROVE_STORE_URL`, else `GROVE_STORE_DIR`, else `.grove/store`).
 * The viewer only ever calls `get` on it.
 *
 * @example
 * const store = openViewerStore();
 */
export function openViewerStore(env: NodeJS.ProcessEnv = process.env): MessageStore {
  return openStore(storeSettingsFromEnv(env));
}
