import type { CodeRuntime } from './runtime.js';
import { javascriptSignatureText, pythonSignatureText, type HelperSignature } from './signature.js';

/** The execute_code description for this host: which language scripts are in, and the helper functions they may call. */
export function executeCodeDescription(params: { runtime: CodeRuntime; signatures: readonly HelperSignature[] }): string {
  const { runtime, signatures } = params;
  const lead =
    'Run one script that calls several tools and does the work between the calls, instead of many separate tool ' +
    'calls: only what it prints comes back. It runs in the workspace (sandboxed like terminal), is killed at the ' +
    'timeout, and its output is shortened like terminal\'s. Each helper returns the tool\'s result text and raises ' +
    '(rejects with) ToolCallError when the tool fails or refuses.';
  if (runtime.language === 'python') {
    const fns = signatures.map((signature) => pythonSignatureText({ signature })).join(', ');
    return `${lead} Scripts are Python 3 (language "javascript" also works: Node ES module, import from 'hermes_tools', async functions taking an object). Python: from hermes_tools import ${signatures.map((s) => s.name).join(', ')}; functions: ${fns}.`;
  }
  const fns = signatures.map((signature) => javascriptSignatureText({ signature })).join(', ');
  return `${lead} Scripts are JavaScript (a Node ES module; python3 is not installed here): import { ${signatures.map((s) => s.name).join(', ')} } from 'hermes_tools'; async functions, each taking an object of the tool's arguments: ${fns}. Use top-level await.`;
}
