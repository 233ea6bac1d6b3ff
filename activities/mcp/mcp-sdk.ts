import { engineMissing } from '../../runtime/optional-engine';
import { asEngineFailure } from '../engine-failure';

/**
 * The parts of `@modelcontextprotocol/sdk` grove uses, loaded on first use: a worker without MCP
 * servers never loads the SDK (nor its HTTP stack). The SDK is an optional peer dependency:
 * without it this throws a non-retryable `GroveEngineMissing` naming the package to add.
 */
export function loadMcpSdk() {
  try {
    return loadSdk();
  } catch (err) {
    throw asEngineFailure(engineMissing(err, '@modelcontextprotocol/sdk'));
  }
}

function loadSdk() {
  /* eslint-disable @typescript-eslint/no-require-imports */
  sdk ??= {
    Client: (require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js')).Client,
    ...(require('@modelcontextprotocol/sdk/client/stdio.js') as Pick<typeof import('@modelcontextprotocol/sdk/client/stdio.js'), 'StdioClientTransport' | 'getDefaultEnvironment'>),
    StreamableHTTPClientTransport: (require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js'))
      .StreamableHTTPClientTransport,
    AjvJsonSchemaValidator: (require('@modelcontextprotocol/sdk/validation/ajv-provider.js') as typeof import('@modelcontextprotocol/sdk/validation/ajv-provider.js')).AjvJsonSchemaValidator,
    types: require('@modelcontextprotocol/sdk/types.js') as Pick<typeof import('@modelcontextprotocol/sdk/types.js'), 'McpError' | 'ErrorCode'>,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return sdk;
}

let sdk:
  | {
      Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
      StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
      getDefaultEnvironment: typeof import('@modelcontextprotocol/sdk/client/stdio.js').getDefaultEnvironment;
      StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
      AjvJsonSchemaValidator: typeof import('@modelcontextprotocol/sdk/validation/ajv-provider.js').AjvJsonSchemaValidator;
      types: Pick<typeof import('@modelcontextprotocol/sdk/types.js'), 'McpError' | 'ErrorCode'>;
    }
  | undefined;
