import type { McpServerConfig } from '../config/mcp-schema.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../util/error-text.js';
import { formatSeconds, withTimeout } from '../util/timeout.js';
import { listServerTools, type McpConnect } from './connection.js';
import { toolWanted } from './names.js';
import { wrapperTools } from './wrappers.js';

/** What one try of a server gave (`hermes mcp test NAME`, doctor). */
export interface McpProbe {
  readonly ok: boolean;
  /** One line per step, each starting ✓ or ✗. */
  readonly lines: readonly string[];
  /** The tools it lists that its filters offer (the server's own names). */
  readonly tools: readonly string[];
}

/**
 * Tries a server once: start or connect and the handshake, its tool list, a ping, all within `connect_timeout`;
 * then closes it (a stdio child ends). Never throws: a failure is a ✗ line with the cause (and a stdio server's last
 * line on stderr).
 */
export async function probeMcpServer(params: { name: string; config: McpServerConfig; clock: Clock; connect: McpConnect; signal?: AbortSignal }): Promise<McpProbe> {
  const { name, config, clock } = params;
  const lines: string[] = [];
  const stderr: string[] = [];
  let tools: string[] = [];
  const started = clock.now();
  const since = (): string => `${Math.max(0, clock.now() - started)} ms`;
  let close: (() => Promise<void>) | undefined;
  try {
    await withTimeout({
      clock,
      ms: config.connect_timeout,
      ...(params.signal ? { signal: params.signal } : {}),
      run: async (signal) => {
        const { client } = await params.connect({ name, config, signal, onStderr: (line) => stderr.push(line) });
        close = () => client.close();
        const version = client.getServerVersion();
        lines.push(`✓ ${config.url === undefined ? 'started' : 'connected'} in ${since()}${version ? ` (${version.name} ${version.version})` : ''}`);
        const capabilities = client.getServerCapabilities() ?? {};
        if (capabilities.tools !== undefined) {
          const listed = (await listServerTools({ client, signal })).map((tool) => tool.name);
          tools = listed.filter((tool) => toolWanted({ tool, include: config.tools.include, exclude: config.tools.exclude }));
          const hidden = listed.length - tools.length;
          lines.push(`✓ ${tools.length} tools offered${hidden > 0 ? ` (${hidden} left out by tools.include/exclude)` : ''}: ${tools.join(', ') || '(none)'}`);
        } else {
          lines.push('✓ it has no tools');
        }
        const wrappers = wrapperTools({ server: name, resources: capabilities.resources !== undefined && config.tools.resources, prompts: capabilities.prompts !== undefined && config.tools.prompts });
        if (wrappers.length > 0) lines.push(`✓ its ${wrappers.length > 2 ? 'resources and prompts' : wrappers[0]?.kind === 'list_resources' ? 'resources' : 'prompts'} are offered too: ${wrappers.map((w) => w.name).join(', ')}`);
        const before = clock.now();
        await client.ping({ signal });
        lines.push(`✓ ping answered in ${Math.max(0, clock.now() - before)} ms`);
      },
    });
    return { ok: true, lines, tools };
  } catch (error) {
    const last = stderr.at(-1);
    const cause = signalCause({ error, connectTimeoutMs: config.connect_timeout });
    lines.push(`✗ ${cause} after ${since()}${last === undefined ? '' : `; its last line on stderr: ${last.slice(0, 300)}`}`);
    return { ok: false, lines, tools };
  } finally {
    await close?.().catch(() => undefined);
  }
}

/** A failure in words: a timeout of the whole try says which limit. */
function signalCause(params: { error: unknown; connectTimeoutMs: number }): string {
  const text = errorMessage(params.error);
  if (/no answer within|timed out|timeout/i.test(text)) return `no answer within connect_timeout (${formatSeconds(params.connectTimeoutMs)})`;
  return text;
}
