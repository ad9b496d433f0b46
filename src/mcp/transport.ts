import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../config/mcp-schema.js';
import type { McpConnect } from './connection.js';

/** Names the client gives itself in the handshake. */
const CLIENT_INFO = { name: 'hermes-gateway', version: '1' };

/**
 * What a stdio server's child gets from the gateway's environment beside its configured `env`: a safe baseline. The
 * SDK adds HOME, LOGNAME, PATH, SHELL, TERM and USER itself; nothing else of the gateway's environment (its keys and
 * tokens, the profile's .env) reaches the child.
 */
export function childEnv(params: { env: Readonly<Record<string, string>>; from: Readonly<Record<string, string | undefined>> }): Record<string, string> {
  const baseline: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ']) {
    const value = params.from[key];
    if (value !== undefined && !value.startsWith('()')) baseline[key] = value;
  }
  return { ...baseline, ...params.env };
}

/** The transport for a server's config: a child process over stdio, or Streamable HTTP. */
async function transportFor(params: { config: McpServerConfig; onStderr: (line: string) => void }): Promise<Transport> {
  const { config } = params;
  if (config.url !== undefined) {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
  }
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: config.command ?? '',
    args: config.args,
    env: childEnv({ env: config.env, from: process.env }),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: 'pipe',
  });
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = (lines.pop() ?? '').slice(-4_096);
    for (const line of lines) if (line.trim() !== '') params.onStderr(line.trim());
  });
  return transport;
}

/** Connects the official SDK's client to a server (the handshake included); closes what it opened when that fails. */
export const connectMcp: McpConnect = async (params) => {
  const { Client: SdkClient } = await import('@modelcontextprotocol/sdk/client/index.js');
  const transport = await transportFor({ config: params.config, onStderr: params.onStderr });
  const client: Client = new SdkClient(CLIENT_INFO, { capabilities: {} });
  try {
    await client.connect(transport, { signal: params.signal, timeout: params.config.connect_timeout });
  } catch (error) {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw error;
  }
  return { client, transport };
};
