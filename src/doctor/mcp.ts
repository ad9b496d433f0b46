import type { GatewayConfig } from '../config/schema.js';
import type { Clock } from '../core/clock.js';
import { line, type CheckLine } from '../core/check-line.js';
import type { Profile } from '../home/profile.js';

/**
 * One line per configured MCP server: each enabled one is started (or connected to) once, its tools listed and
 * pinged, all at once (each within its connect_timeout). The MCP code loads only when there is a server.
 */
export async function mcpLines(params: { config: GatewayConfig; profile: Profile; clock: Clock }): Promise<CheckLine[]> {
  const servers = Object.entries(params.config.mcp_servers);
  if (servers.length === 0) return [];
  const [{ probeMcpServer }, { connectMcp }] = await Promise.all([import('../mcp/probe.js'), import('../mcp/transport.js')]);
  const test = `hermes${params.profile.name === 'default' ? '' : ` -p ${params.profile.name}`} mcp test`;
  return Promise.all(
    servers.map(async ([name, config]): Promise<CheckLine> => {
      const label = `mcp ${name}`;
      if (!config.enabled) return line.warn(label, 'disabled (enabled: false): its tools are not offered');
      const probe = await probeMcpServer({ name, config, clock: params.clock, connect: connectMcp });
      if (probe.ok) return line.ok(label, `${probe.tools.length} tool${probe.tools.length === 1 ? '' : 's'} offered, answers ping`);
      const cause = (probe.lines.at(-1) ?? '✗ failed').replace(/^✗ /, '');
      const fix = config.url === undefined
        ? `check mcp_servers.${name}.command and args in config.yaml (is the program installed?); \`${test} ${name}\` shows each step`
        : `check mcp_servers.${name}.url and headers in config.yaml (is the server up?); \`${test} ${name}\` shows each step`;
      return line.fail(label, cause, fix);
    }),
  );
}
