import type { McpServerConfig } from '../config/mcp-schema.js';
import { UserFacingError } from '../core/errors.js';
import { systemClock, type Clock } from '../core/clock.js';
import { runningPid } from '../home/pid-lock.js';
import { mcpServerState, type McpServerHealth } from '../mcp/status-text.js';
import { loadExistingProfile, type GlobalOptions, type LoadedProfile } from './context.js';
import { println, type CliIO } from './output.js';
import { health, healthAddress } from './status-cmd.js';

/** How a server is reached, in one line (secrets scrubbed: an argument or URL may hold a token). */
function reachedBy(params: { config: McpServerConfig; scrub: (text: string) => string }): string {
  const { config } = params;
  const how = config.url === undefined ? `stdio: ${[config.command ?? '', ...config.args].join(' ')}` : `http: ${config.url}`;
  return params.scrub(how);
}

/** The running gateway's view of its MCP servers, or why there is none. */
async function runningServers(params: { loaded: LoadedProfile; io: CliIO }): Promise<readonly McpServerHealth[] | string> {
  const { profile } = params.loaded;
  const pid = runningPid({ profile });
  if (pid === null) return 'the gateway is not running';
  const address = await healthAddress({ profile, pid, env: params.io.env });
  if (address === null) return `the gateway (pid ${pid}) has no HTTP server to ask`;
  const report = await health(address);
  return typeof report === 'string' ? report : (report.mcp ?? []);
}

/**
 * `hermes mcp list`: the profile's MCP servers as configured (how each is reached, its filters) and, when the gateway
 * runs, where each is and the tools it gives new conversations.
 */
export async function mcpList(params: { options: GlobalOptions; io: CliIO }): Promise<number> {
  const { io } = params;
  const loaded = await loadExistingProfile(params);
  const servers = Object.entries(loaded.config.mcp_servers);
  if (servers.length === 0) {
    println({ stream: io.stdout, text: `No MCP servers are configured for profile "${loaded.profile.name}": add them under mcp_servers in ${loaded.profile.configPath} (config.example.yaml shows every key).` });
    return 0;
  }
  const running = await runningServers({ loaded, io });
  const scrub = (text: string): string => loaded.redactor.scrub(text);
  for (const [name, config] of servers) {
    println({ stream: io.stdout, text: `${name} (${reachedBy({ config, scrub })})` });
    const filters = [config.tools.include.length > 0 ? `include ${config.tools.include.join(', ')}` : '', config.tools.exclude.length > 0 ? `exclude ${config.tools.exclude.join(', ')}` : ''].filter((f) => f !== '');
    println({ stream: io.stdout, text: `  approval: ${config.approval}; timeout ${config.timeout / 1000}s${filters.length > 0 ? `; ${filters.join('; ')}` : ''}` });
    if (typeof running === 'string') {
      println({ stream: io.stdout, text: config.enabled ? `  state: unknown (${running}); \`hermes mcp test ${name}\` tries it now` : '  disabled (enabled: false)' });
      continue;
    }
    const server = running.find((s) => s.name === name);
    if (server === undefined) {
      println({ stream: io.stdout, text: '  not in the running gateway yet (`hermes gateway reload` applies config.yaml)' });
      continue;
    }
    println({ stream: io.stdout, text: `  ${mcpServerState({ server })}` });
    if (server.tools.length > 0) println({ stream: io.stdout, text: `  tools: ${server.tools.join(', ')}` });
  }
  return 0;
}

/** `hermes mcp test NAME`: starts (or connects to) the server once, lists its tools and pings it; exit 1 when it fails. */
export async function mcpTest(params: { options: GlobalOptions; io: CliIO; name: string; clock?: Clock }): Promise<number> {
  const { io, name } = params;
  const loaded = await loadExistingProfile(params);
  const config = loaded.config.mcp_servers[name];
  if (config === undefined) {
    const known = Object.keys(loaded.config.mcp_servers);
    throw new UserFacingError({
      message: `profile "${loaded.profile.name}" has no MCP server named "${name}"`,
      hint: known.length > 0 ? `Its servers: ${known.join(', ')}.` : `Add it under mcp_servers in ${loaded.profile.configPath}.`,
      exitCode: 66,
    });
  }
  const [{ probeMcpServer }, { connectMcp }] = await Promise.all([import('../mcp/probe.js'), import('../mcp/transport.js')]);
  println({ stream: io.stdout, text: `MCP server ${name} (${reachedBy({ config, scrub: (text) => loaded.redactor.scrub(text) })})${config.enabled ? '' : ' — disabled in config.yaml, tried anyway'}` });
  const probe = await probeMcpServer({ name, config, clock: params.clock ?? systemClock, connect: connectMcp });
  for (const line of probe.lines) println({ stream: io.stdout, text: `  ${loaded.redactor.scrub(line)}` });
  return probe.ok ? 0 : 1;
}
