import type { CodeRuntime } from './runtime.js';
import type { HelperSignature } from './signature.js';

/**
 * The execute_code description for this host: which language scripts are in and the helper functions they may call
 * (by name only: a helper's arguments are its tool's, which the model already has; every token of it is in each request).
 */
export function executeCodeDescription(params: { runtime: CodeRuntime; signatures: readonly HelperSignature[] }): string {
  const names = params.signatures.map((s) => s.name).join(', ');
  const lead = 'Run one script that calls tools and does the work between the calls, in a single step: only what it prints comes back. It runs in the workspace like terminal and is killed at the timeout.';
  if (params.runtime.language === 'python') {
    return `${lead} Python 3 (language "javascript": a Node ES module, async helpers taking an object). from hermes_tools import ${names}: keyword arguments are the tool's, each returns its result text and raises ToolCallError on an error.`;
  }
  return `${lead} JavaScript (python3 is not installed here): a Node ES module with top-level await. import { ${names} } from 'hermes_tools': async, each takes an object of the tool's arguments, resolves to its result text and rejects with ToolCallError on an error.`;
}
