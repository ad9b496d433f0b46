import type { PlatformDescriptor } from '../../src/core/platform-descriptor.js';
import type { ApiConfig } from './config-schema.js';

/** An OpenAI-compatible HTTP API on the gateway's server (POST /v1/chat/completions), for any OpenAI client or web UI. */
export const api: PlatformDescriptor<'api', ApiConfig> = {
  name: 'api',
  title: 'HTTP API',
  // The text goes to the client as it is.
  formatting:
    'Replies go to an OpenAI-compatible client (a chat web UI, an app or a script) as they are: write ordinary Markdown (most clients render it), ' +
    'kept clean enough to read where it is shown raw. Files cannot be sent here: MEDIA lines are not delivered.',
  schema: async () => (await import('./config-schema.js')).apiSchema,
  load: async () => (await import('./factory.js')).apiFactory,
  credentialCheck: async () => (await import('./check.js')).apiCredentialCheck,
  // No setup section: its keys are a list in .env and config.yaml (see the README's API section).
  // No account of its own: its clients reach it through the gateway's HTTP port, which clash detection already compares.
  accounts: () => [],
};
