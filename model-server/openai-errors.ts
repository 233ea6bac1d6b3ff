/**
 * OpenAI's error envelope and the messages OpenAI uses, so that SDK error classes
 * (`BadRequestError`, `AuthenticationError`, `NotFoundError`, `RateLimitError`,
 * `InternalServerError`) and grove's classification see exactly what a real endpoint sends.
 */
export interface OpenAIErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** An HTTP error ready to send: status, envelope body and extra headers. */
export interface HttpError {
  status: number;
  error: OpenAIErrorBody;
  headers?: Record<string, string>;
}

/**
 * Builds a 400 invalid_request_error.
 *
 * @example
 * badRequest("Missing required parameter: 'model'.", 'model', 'missing_required_parameter').status // 400
 */
export function badRequest(message: string, param: string | null = null, code: string | null = null): HttpError {
  return { status: 400, error: { message, type: 'invalid_request_error', param, code } };
}

/** 404 for an unknown model, with OpenAI's wording. @example modelNotFound('x').error.code // 'model_not_found' */
export function modelNotFound(model: string): HttpError {
  return {
    status: 404,
    error: {
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
      type: 'invalid_request_error',
      param: null,
      code: 'model_not_found',
    },
  };
}

/** Masks a key the way OpenAI does: first 3 and last 4 characters. @example maskKey('sk-abcdefgh1234') // 'sk-********1234' */
export function maskKey(key: string): string {
  if (key.length <= 8) return '*'.repeat(key.length);
  return key.slice(0, 3) + '*'.repeat(key.length - 7) + key.slice(-4);
}

/** 401 for a missing or wrong bearer key. @example unauthorized('bad').status // 401 */
export function unauthorized(key: string | undefined): HttpError {
  if (!key) {
    return {
      status: 401,
      error: {
        message:
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    };
  }
  return {
    status: 401,
    error: {
      message: `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_api_key',
    },
  };
}

/**
 * The error a `status` fault sends: 429 looks like OpenAI's rate limit, 5xx like a server
 * error, anything else like an invalid request. `Retry-After` is set when given.
 *
 * @example
 * faultError(429, { retryAfterSeconds: 2 }).headers // { 'retry-after': '2' }
 */
export function faultError(
  status: number,
  opts: { retryAfterSeconds?: number; message?: string; code?: string } = {},
): HttpError {
  const headers: Record<string, string> = {};
  if (opts.retryAfterSeconds !== undefined) headers['retry-after'] = String(opts.retryAfterSeconds);
  let type = 'invalid_request_error';
  let message = opts.message ?? `Injected fault: HTTP ${status}.`;
  let code: string | null = opts.code ?? null;
  if (status === 429) {
    type = 'requests';
    message = opts.message ?? 'Rate limit reached for requests (injected by the grove model server). Please try again later.';
    code = opts.code ?? 'rate_limit_exceeded';
  } else if (status >= 500) {
    type = 'server_error';
    message = opts.message ?? 'The server had an error while processing your request (injected by the grove model server). Sorry about that!';
    code = opts.code ?? null;
  }
  return { status, error: { message, type, param: null, code }, headers };
}

/** 500 for a policy that threw or broke its contract. */
export function policyFailure(message: string): HttpError {
  return { status: 500, error: { message, type: 'server_error', param: null, code: null } };
}

/** 404 for a path the server does not serve (OpenAI's wording), or with a message of its own. @example notFound('GET', '/v2').status // 404 */
export function notFound(method: string, path: string, message = `Invalid URL (${method} ${path})`): HttpError {
  return { status: 404, error: { message, type: 'invalid_request_error', param: null, code: null } };
}

/** 413 for a request body over the server's limit. */
export function bodyTooLarge(): HttpError {
  return { status: 413, error: { message: 'Request body too large.', type: 'invalid_request_error', param: null, code: null } };
}
