import type { CodeRuntime } from './runtime.js';
import { javascriptSignatureText, pythonSignatureText, type HelperSignature } from './signature.js';

/** The execute_code description for this host: which language scripts are in, and the helper functions they may call. */
export function executeCodeDescription(params: { runtime: CodeRuntime; signatures: readonly HelperSignature[] }): string {
  const { runtime, signatures } = params;
  const lead =
    'Run one script that calls several tools and does the work between the calls, instead of many separate tool ' +
    'calls: only what it prints comes back. It runs in the workspace like terminal (its sandbox, if any), is killed at ' +
    'the timeout, and long output is shortened. Each helper returns the tool\'s result text and raises ' +
    '(rejects with) ToolCallError when the tool fails or refuses.';
  if (runtime.language === 'python') {
    const fns = signatures.map((signature) => pythonSignatureText({ signature })).join(', ');
    return `${lead} Scripts are Python 3 (language "javascript" also works: a Node ES module whose async helpers from 'hermes_tools' take an object). Python helpers (from hermes_tools import ...): ${fns}.`;
  }
  const fns = signatures.map((signature) => javascriptSignatureText({ signature })).join(', ');
  return `${lead} Scripts are JavaScript (a Node ES module with top-level await; python3 is not installed here). Async helpers (import { ... } from 'hermes_tools'), each taking an object of the tool's arguments: ${fns}.`;
}
