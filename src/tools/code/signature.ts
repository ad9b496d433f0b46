import { z } from 'zod';
import type { ToolDefinition } from '../tool.js';

/** One helper function of the generated module: the tool it calls and its arguments (required ones first). */
export interface HelperSignature {
  /** The tool's name (also the function's). */
  readonly name: string;
  /** Argument names the tool requires, in schema order. */
  readonly required: readonly string[];
  /** Argument names it accepts besides, in schema order. */
  readonly optional: readonly string[];
  /** True when the arguments are not known here (a tool registered after execute_code): keyword arguments only. */
  readonly open?: boolean;
}

/** The helper signature of each tool, read from its JSON Schema (the arguments the model would send). */
export function helperSignatures(params: { tools: readonly ToolDefinition[] }): HelperSignature[] {
  return params.tools.map((tool) => {
    const schema = z.toJSONSchema(tool.input, { io: 'input' }) as { properties?: Record<string, unknown>; required?: string[] };
    const names = Object.keys(schema.properties ?? {});
    const required = new Set(schema.required ?? []);
    return { name: tool.name, required: names.filter((n) => required.has(n)), optional: names.filter((n) => !required.has(n)) };
  });
}
