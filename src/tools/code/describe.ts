import type { CodeRuntime } from './runtime.js';
import type { HelperSignature } from './signature.js';

/**
 * The execute_code description for this host: which language scripts are in and the helper functions they may call
 * (by name only: a helper's arguments are its tool's, which the model already has; every token of it is in each request).
 */
export function executeCodeDescription(params: { runtime: CodeRuntime; signatures: readonly HelperSignature[] }): string {
  const names = params.signatures.map((s) => s.name).join(', ');
  const lead = 'Run a script that calls tools and works on their results; only what it prints comes back.';
  if (params.runtime.language === 'python') {
    return `${lead} Python 3: from hermes_tools import ${names} (keyword arguments as the tool's; each returns the result text or raises ToolCallError). language 'javascript': Node ES module, async helpers taking an object.`;
  }
  return `${lead} JavaScript (no python3 here): a Node ES module with top-level await; import { ${names} } from 'hermes_tools' (async, each takes an object of the tool's arguments, resolves to the result text or rejects with ToolCallError).`;
}
