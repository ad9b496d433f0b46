import { z } from 'zod';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { type ToolContext, type ToolDefinition } from './tool.js';
import { ToolError } from '../core/errors.js';
import { errorMessage } from '../util/error-text.js';

/** One tool call as the model sent it. */
export interface ToolCallRequest {
  /** The model's id for the call; the result must carry it back. */
  id: string;
  /** Tool name the model asked for. */
  name: string;
  /** Arguments as JSON text (may be empty for "no arguments"). */
  arguments: string;
}

/** What a tool call produced, ready to send back to the model. */
export interface ToolResult {
  /** Text for the model. */
  content: string;
  /** True when the call failed or did not run. */
  isError: boolean;
}

/** Outcome of parsing a call's arguments against its tool's schema. */
export type ParsedCall =
  | { ok: true; tool: ToolDefinition; args: unknown }
  | { ok: false; error: string };

/** Default cap on a single tool result, so one runaway tool cannot flood the context. */
const DEFAULT_MAX_RESULT_CHARS = 100_000;

/** The tools an agent may call, by name. */
export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly maxResultChars: number;
  /** JSON Schemas are generated once per registration, not on every model call. */
  private openAITools: ChatCompletionFunctionTool[] | null = null;

  constructor(params: { tools?: ToolDefinition[]; maxResultChars?: number } = {}) {
    this.maxResultChars = params.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    for (const tool of params.tools ?? []) this.register(tool);
  }

  /** Adds a tool; a second tool with the same name is a programming error. */
  register(tool: ToolDefinition): void {
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) {
      throw new Error(`Tool name "${tool.name}" is invalid: use 1-64 letters, digits, "_" or "-".`);
    }
    if (this.tools.has(tool.name)) throw new Error(`Tool "${tool.name}" is registered twice.`);
    this.tools.set(tool.name, tool);
    this.openAITools = null;
  }

  /** The tool with this name, if registered. */
  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  /**
   * A registry with this one's tools and `extra` after them (a session's MCP tools): the built-in tools' schemas are
   * not made again (they are kept per definition).
   */
  withTools(params: { extra: readonly ToolDefinition[] }): ToolRegistry {
    if (params.extra.length === 0) return this;
    return new ToolRegistry({ tools: [...this.tools.values(), ...params.extra], maxResultChars: this.maxResultChars });
  }

  /** A registry with only the tools `keep` accepts (a platform's tool sets), in the same order and with the same result cap. */
  filtered(params: { keep: (tool: ToolDefinition) => boolean }): ToolRegistry {
    return new ToolRegistry({ tools: this.list().filter(params.keep), maxResultChars: this.maxResultChars });
  }

  /** All tools in registration order. */
  list(): ToolDefinition[] {
    return [...this.tools.values()];
  }

  /** The `tools` parameter for chat.completions, with JSON Schemas generated from the zod inputs (see modelSchema). */
  toOpenAITools(): ChatCompletionFunctionTool[] {
    this.openAITools ??= this.list().map((tool) => openAITool({ tool }));
    return this.openAITools;
  }

  /** Looks the tool up and validates the arguments, describing any problem for the model. */
  parse(call: ToolCallRequest): ParsedCall {
    const tool = this.tools.get(call.name);
    if (!tool) {
      const names = this.list().map((t) => t.name).join(', ') || '(none)';
      return { ok: false, error: `Error: unknown tool "${call.name}". Available tools: ${names}.` };
    }
    let raw: unknown;
    try {
      raw = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch (error) {
      return {
        ok: false,
        error:
          `Error: the arguments for ${call.name} are not valid JSON (${errorMessage(error)}). ` +
          "Send one JSON object matching the tool's schema.",
      };
    }
    const parsed = tool.input.safeParse(raw);
    if (!parsed.success) {
      const summary = summarizeIssues({ issues: parsed.error.issues });
      return { ok: false, error: `Error: invalid arguments for ${call.name}: ${summary}.` };
    }
    return { ok: true, tool, args: parsed.data };
  }

  /** Runs one call; every failure (unknown tool, bad JSON, bad arguments, exceptions) becomes an error result. */
  async execute(params: { call: ToolCallRequest; ctx: ToolContext }): Promise<ToolResult> {
    const { call, ctx } = params;
    const parsed = this.parse(call);
    if (!parsed.ok) return { content: parsed.error, isError: true };
    try {
      const content = await parsed.tool.handler(parsed.args, ctx);
      return { content: this.cap(content), isError: false };
    } catch (error) {
      if (ctx.signal.aborted && !(error instanceof ToolError)) {
        const content = `Interrupted: ${call.name} was stopped because the user interrupted the turn.`;
        return { content, isError: true };
      }
      const text = error instanceof ToolError ? error.message : `${call.name} failed: ${errorMessage(error)}`;
      return { content: this.cap(`Error: ${text}`), isError: true };
    }
  }

  private cap(content: string): string {
    if (content.length <= this.maxResultChars) return content;
    const omitted = content.length - this.maxResultChars;
    return `${content.slice(0, this.maxResultChars)}\n[truncated: ${omitted} more characters not shown]`;
  }
}

/** Each definition's `tools` entry, made once (a registry made per session shares the built-in tools' entries). */
const sentForm = new WeakMap<ToolDefinition, ChatCompletionFunctionTool>();

function openAITool(params: { tool: ToolDefinition }): ChatCompletionFunctionTool {
  const { tool } = params;
  let sent = sentForm.get(tool);
  if (sent === undefined) {
    const parameters = tool.parameters ?? modelSchema({ schema: z.toJSONSchema(tool.input, { io: 'input' }) });
    sent = { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
    sentForm.set(tool, sent);
  }
  return sent;
}

/**
 * A tool's JSON Schema as the model is sent it: without `$schema`, and without the bounds that tell the model nothing
 * but cost bytes in every request: `minLength: 1` (no model means an empty string) and the ±2^53-1 bounds zod gives
 * every `.int()`. Only what is sent changes: the arguments are still validated against the zod schema, bounds included.
 */
export function modelSchema(params: { schema: Record<string, unknown> }): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = params.schema;
  return prune(rest) as Record<string, unknown>;
}

/** Keywords whose values are data, not schemas: kept as they are. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples']);

function prune(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prune);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'minLength' && value === 1) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    out[key] = DATA_KEYWORDS.has(key) ? value : prune(value);
  }
  return out;
}

/** Turns zod issues into one readable line, e.g. `path: expected string; offset: too small`. */
export function summarizeIssues(params: { issues: readonly z.core.$ZodIssue[] }): string {
  return params.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}
