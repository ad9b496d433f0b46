import { z } from 'zod';
import type { Logger } from 'pino';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../config/mcp-schema.js';
import { ToolError } from '../core/errors.js';
import { scanForThreats } from '../threats/scan.js';
import { refusalUnlessApproved } from '../tools/builtin/terminal-approval.js';
import { modelSchema } from '../tools/registry.js';
import { defineTool, type ToolContext, type ToolDefinition } from '../tools/tool.js';
import { errorMessage } from '../util/error-text.js';
import { formatSeconds } from '../util/timeout.js';
import { McpUnavailableError, type McpToolInfo } from './connection.js';
import type { McpSnapshotTool, McpToolKind } from './snapshot.js';
import { wrapperResultText, wrapperTools } from './wrappers.js';
import { mcpToolName, toolWanted } from './names.js';

/** What a server's tools need of its connection: one request of a kind (a tool call, or a resource or prompt wrapper's). */
export interface McpToolHost {
  request(params: { kind: McpToolKind; tool: string; args: Record<string, unknown>; signal: AbortSignal }): Promise<unknown>;
}

/** A listed tool that is not offered, and why (logged; `hermes mcp list` shows it). */
export interface RefusedMcpTool {
  readonly tool: string;
  readonly reason: string;
}

/** Most characters of a tool's description sent to the model (every request carries it). */
export const MAX_DESCRIPTION_CHARS = 1_000;

/** Most characters of the arguments shown to the owner in an approval request. */
const MAX_SHOWN_ARGS = 600;

/** The arguments of every MCP tool as the gateway checks them: an object (the server validates the rest). */
const anyArguments = z.record(z.string(), z.unknown());

/**
 * The tools a session is offered from one server's listing: `mcp_<server>_<tool>` each, filtered by `tools.include` /
 * `exclude`, then the resource and prompt wrappers where the server has them (and `tools.resources` / `prompts`
 * allow). Refused (and logged, one line each): a name past 64 characters or taken already (`taken`: the built-in
 * tools' and other servers'), and a tool whose description the threat scan flags (an MCP server's text is
 * untrusted: it would enter every request).
 */
export function offerMcpTools(params: {
  server: string;
  config: McpServerConfig;
  listed: readonly McpToolInfo[];
  /** What the server said it has besides tools. */
  has: { readonly resources: boolean; readonly prompts: boolean };
  taken: ReadonlySet<string>;
  logger: Logger;
}): { offered: McpSnapshotTool[]; refused: RefusedMcpTool[] } {
  const { server, config, logger } = params;
  const offered: McpSnapshotTool[] = [];
  const refused: RefusedMcpTool[] = [];
  const names = new Set(params.taken);
  const refuse = (tool: string, reason: string): void => {
    refused.push({ tool, reason });
    logger.warn({ server, tool }, `MCP server ${server}: tool ${tool} is not offered: ${reason}`);
  };
  const wanted = params.listed.filter((info) => toolWanted({ tool: info.name, include: config.tools.include, exclude: config.tools.exclude }));
  const candidates = [
    ...wanted.map((info) => ({ ...info, kind: 'tool' as const })),
    ...wrapperTools({ server, resources: params.has.resources && config.tools.resources, prompts: params.has.prompts && config.tools.prompts }),
  ];
  for (const info of candidates) {
    const name = mcpToolName({ server, tool: info.name });
    if (name === undefined) {
      refuse(info.name, `its name mcp_${server}_${info.name} is longer than 64 characters`);
      continue;
    }
    if (names.has(name)) {
      refuse(info.name, `the name ${name} is taken by another tool`);
      continue;
    }
    const finding = info.kind === 'tool' ? scanForThreats({ text: `${info.name}\n${info.description}`, source: 'mcp-tool' }) : undefined;
    if (finding !== undefined) {
      refuse(info.name, `its description ${finding.reason} (${finding.id})`);
      continue;
    }
    names.add(name);
    offered.push({ server, kind: info.kind, tool: info.name, name, description: info.description, inputSchema: info.inputSchema, readOnly: info.readOnly });
  }
  return { offered, refused };
}

/** offerMcpTools' tools made into the agent's (what a session's snapshot becomes each turn: see mcpTool). */
export function mcpToolDefinitions(params: Parameters<typeof offerMcpTools>[0] & { host: McpToolHost }): { tools: ToolDefinition[]; refused: RefusedMcpTool[] } {
  const { offered, refused } = offerMcpTools(params);
  return { tools: offered.map((entry) => mcpTool({ entry, config: params.config, host: params.host })), refused };
}

/**
 * One offered MCP tool as the agent's tool, with the server's current settings (`timeout`, `approval`): the stored
 * listing decides what the model is sent, the config how a call runs.
 */
export function mcpTool(params: { entry: McpSnapshotTool; config: McpServerConfig; host: McpToolHost }): ToolDefinition {
  const { entry, config, host } = params;
  const { server } = entry;
  const description = entry.description.trim() === '' ? `Tool ${entry.tool} of the MCP server "${server}".` : capText({ text: entry.description.trim(), max: MAX_DESCRIPTION_CHARS });
  const asks = config.approval === 'manual' && !entry.readOnly;
  return defineTool({
    name: entry.name,
    description,
    input: anyArguments,
    parameters: modelParameters({ schema: entry.inputSchema }),
    // A read-only tool may run beside others; one that can change things runs alone.
    parallel: entry.readOnly ? 'safe' : 'never',
    progress: { emoji: '🔌' },
    handler: async (args, ctx) => {
      if (asks) {
        const refusal = await approvalRefusal({ ctx, name: entry.name, server, tool: entry.tool, args });
        if (refusal !== undefined) return refusal;
      }
      let result: unknown;
      try {
        result = await host.request({ kind: entry.kind, tool: entry.tool, args, signal: ctx.signal });
      } catch (error) {
        throw new ToolError(callFailure({ error, server, tool: entry.tool, timeoutMs: config.timeout }));
      }
      const { text, isError } = entry.kind === 'tool' ? mcpResultText({ result }) : wrapperResultText({ kind: entry.kind, result });
      if (isError) throw new ToolError(`MCP server "${server}" says ${entry.tool} failed: ${text}`);
      return fenced({ server, tool: entry.tool, text });
    },
  });
}

/** Asks the owner before a tool the server does not mark read-only; the refusal text, or undefined to go on. */
function approvalRefusal(params: { ctx: ToolContext; name: string; server: string; tool: string; args: Record<string, unknown> }): Promise<string | undefined> {
  return refusalUnlessApproved({
    ctx: params.ctx,
    tool: params.name,
    command: capText({ text: `${params.name} ${JSON.stringify(params.args)}`, max: MAX_SHOWN_ARGS }),
    matches: [{ patternId: `mcp:${params.server}:${params.tool}`, description: `a tool of the MCP server "${params.server}" that may change things` }],
    nobody: 'no one can approve MCP tools that change things here',
  });
}

/** The model's text for a call that got no result. */
function callFailure(params: { error: unknown; server: string; tool: string; timeoutMs: number }): string {
  const { error } = params;
  if (error instanceof McpUnavailableError) return error.message;
  if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) {
    return `MCP server "${params.server}" did not answer ${params.tool} within ${formatSeconds(params.timeoutMs)}; the call was abandoned (the server and its other tools are still there).`;
  }
  return `MCP server "${params.server}" could not run ${params.tool}: ${errorMessage(error)}`;
}

/** A result's content as text: text parts as they are, other parts described; structured content when there is no text. */
export function mcpResultText(params: { result: unknown }): { text: string; isError: boolean } {
  const result = (typeof params.result === 'object' && params.result !== null ? params.result : {}) as Record<string, unknown>;
  const parts: string[] = [];
  for (const part of Array.isArray(result['content']) ? (result['content'] as unknown[]) : []) parts.push(partText({ part }));
  if (parts.length === 0 && result['structuredContent'] !== undefined) parts.push(JSON.stringify(result['structuredContent']));
  if (parts.length === 0 && result['toolResult'] !== undefined) parts.push(JSON.stringify(result['toolResult']));
  return { text: parts.join('\n') || '(no output)', isError: result['isError'] === true };
}

function partText(params: { part: unknown }): string {
  const part = (typeof params.part === 'object' && params.part !== null ? params.part : {}) as Record<string, unknown>;
  const str = (value: unknown): string => (typeof value === 'string' ? value : '');
  switch (part['type']) {
    case 'text':
      return str(part['text']);
    case 'image':
    case 'audio':
      return `[${String(part['type'])} (${str(part['mimeType']) || 'unknown type'}, ${Math.floor((str(part['data']).length * 3) / 4)} bytes): not shown]`;
    case 'resource': {
      const resource = (typeof part['resource'] === 'object' && part['resource'] !== null ? part['resource'] : {}) as Record<string, unknown>;
      if (typeof resource['text'] === 'string') return `[resource ${str(resource['uri'])}]\n${resource['text']}`;
      return `[resource ${str(resource['uri'])} (${str(resource['mimeType']) || 'binary'}): not shown]`;
    }
    case 'resource_link':
      return `[resource link: ${str(part['uri'])}${part['name'] === undefined ? '' : ` (${str(part['name'])})`}]`;
    default:
      return `[a ${str(part['type']) || 'content'} part: not shown]`;
  }
}

/** The result set off as data from the server, with any closing marker inside it neutralized. */
function fenced(params: { server: string; tool: string; text: string }): string {
  const body = params.text.replaceAll('</mcp_output>', '<\\/mcp_output>');
  return `<mcp_output server="${params.server}" tool="${params.tool}">\n${body}\n</mcp_output>`;
}

/** A tool's input schema as the model is sent it: trimmed as the built-in tools' are (modelSchema), and an object schema. */
function modelParameters(params: { schema: Record<string, unknown> }): Record<string, unknown> {
  const trimmed = modelSchema({ schema: params.schema });
  return { ...trimmed, type: 'object', properties: trimmed['properties'] ?? {} };
}

function capText(params: { text: string; max: number }): string {
  return params.text.length <= params.max ? params.text : `${params.text.slice(0, params.max - 1)}…`;
}
