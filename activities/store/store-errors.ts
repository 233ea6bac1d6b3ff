/**
 * A store that cannot be reached or written: the worker fails at start with this one line
 * (the store's URL with any password redacted, and what to check) instead of failing runs later.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/** A `GROVE_STORE_URL` grove cannot use (unknown scheme, credentials in the wrong place...). */
export class StoreConfigError extends Error {
  override name = 'StoreConfigError';
}

/**
 * A URL for logs and messages: the password (and any token-like query parameter) replaced by
 * `***`, so a store URL never reaches a log, an error or workflow history with its secret.
 *
 * @example
 * redactUrl('postgres://grove:s3cret@db:5432/grove') // 'postgres://grove:***@db:5432/grove'
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) {
      if (/pass|secret|token|key/i.test(key)) parsed.searchParams.set(key, '***');
    }
    return parsed.toString().replace('%2A%2A%2A', '***');
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
  }
}
