// Support for the doctor unit tests: a AppConfig from a config.yaml-shaped tree, and tiny loopback servers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../../../src/app/config-schema.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

/** The effective config for a config.yaml-shaped object (workspace set to the temp dir). */
export function configOf(tree: unknown): AppConfig {
  const parsed = configSchema.parse(tree);
  return { ...parsed, tools: { ...parsed.tools, workspace: '/tmp' } };
}

/** An HTTP server on 127.0.0.1 answering with `handle`; `url` is its origin. */
export async function tinyServer(handle: http.RequestListener): Promise<{ url: string; requests: http.IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.headers);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
