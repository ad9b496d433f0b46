import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../src/tools/tool.js';

/** A `probe_gate` tool that waits until the test opens it: a turn held between two model calls. */
export interface GateTool {
  readonly tool: ToolDefinition;
  /** Lets every waiting (and later) call of the tool return. */
  readonly open: () => void;
  /** True once a call of the tool started (since the last rearm). */
  readonly entered: () => boolean;
  /** Closes the gate again for the next turn: later calls wait for the next open. */
  readonly rearm: () => void;
}

/** Makes a gate tool (one per test). */
export function gateTool(): GateTool {
  let open: () => void = () => undefined;
  let opened: Promise<void> = Promise.resolve();
  let entered = false;
  const rearm = (): void => {
    entered = false;
    opened = new Promise<void>((resolve) => {
      open = resolve;
    });
  };
  rearm();
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
  return { tool, open: () => open(), entered: () => entered, rearm };
}
