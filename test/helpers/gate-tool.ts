import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../src/tools/tool.js';

/** A `probe_gate` tool that waits until the test opens it: a turn held between two model calls. */
export interface GateTool {
  readonly tool: ToolDefinition;
  /** Lets every waiting (and later) call of the tool return. */
  readonly open: () => void;
  /** True once a call of the tool started. */
  readonly entered: () => boolean;
}

/** Makes a gate tool (one per test). */
export function gateTool(): GateTool {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let entered = false;
  const tool = defineTool({
    name: 'probe_gate',
    description: 'waits for the test',
    input: z.object({}),
    parallel: 'never',
    handler: async (_args, ctx) => {
      entered = true;
      // An interrupted turn (shutdown, /stop) stops waiting.
      const aborted = new Promise<never>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('interrupted')), { once: true }));
      await Promise.race([opened, aborted]);
      return 'gate opened';
    },
  });
  return { tool, open: () => open(), entered: () => entered };
}
