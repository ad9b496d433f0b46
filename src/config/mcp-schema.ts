import { z } from 'zod';
import { bool, duration, httpUrl, optionalString } from '../util/config-fields.js';

/** mcp_servers.<name>.tools: which of a server's tools the agent is offered, and its resource and prompt wrappers. */
const mcpToolsSchema = z
  .strictObject({
    /** Only these (exact names or globs: `*`, `?`, `{a,b}`, `[...]`); empty: all. A tool named by both lists is included. */
    include: z.array(z.string().min(1)).default([]),
    /** Never these (exact names or globs). */
    exclude: z.array(z.string().min(1)).default([]),
    /** list_resources and read_resource, when the server has resources. */
    resources: bool().default(true),
    /** list_prompts and get_prompt, when the server has prompts. */
    prompts: bool().default(true),
  })
  .prefault({});

/**
 * One MCP server (Hermes Agent's `mcp_servers.<name>`): a child process over stdio (`command`, `args`, `env`, `cwd`)
 * or a Streamable HTTP endpoint (`url`, `headers`; `${VAR}` in them comes from the profile's .env like any value).
 */
export const mcpServerSchema = z
  .strictObject({
    command: optionalString(),
    args: z.array(z.string()).default([]),
    /** The child's whole environment beside a safe baseline (PATH, HOME, LANG, ...): never the profile's .env. */
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'), z.string()).default({}),
    cwd: optionalString(),
    url: httpUrl().optional(),
    headers: z.record(z.string().min(1), z.string()).default({}),
    enabled: bool().default(true),
    /** Longest one tool call may take; a call past it fails alone (the server stays registered). */
    timeout: duration({ defaultValue: '120s', minMs: 1 }),
    /** Longest the start (spawn or connect, the handshake and the tool list) may take before it counts as failed. */
    connect_timeout: duration({ defaultValue: '60s', minMs: 1 }),
    tools: mcpToolsSchema,
    /** manual: a call of a tool the server does not mark read-only waits for the owner's approval; off: none waits. */
    approval: z.enum(['manual', 'off']).default('manual'),
  })
  .superRefine((server, ctx) => {
    if ((server.command === undefined) === (server.url === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'either `command` (a server run over stdio) or `url` (Streamable HTTP), not both or neither', input: server });
    }
    if (server.url !== undefined && (server.args.length > 0 || Object.keys(server.env).length > 0 || server.cwd !== undefined)) {
      ctx.addIssue({ code: 'custom', message: '`args`, `env` and `cwd` are for a server run over stdio (`command`); an HTTP server (`url`) takes `headers`', input: server });
    }
  });

/** mcp_servers: the profile's MCP servers by name (the name goes into each tool's: mcp_<name>_<tool>). */
export const mcpServersSchema = z.preprocess(
  (value) => (value === null ? undefined : value),
  z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/, 'a server name of letters, digits, "_", "-" and "." (at most 40)'), mcpServerSchema).default({}),
);

/** One server's settings as parsed (durations in ms). */
export type McpServerConfig = z.output<typeof mcpServerSchema>;
