// Many messages through the gateway child's API, each in its own chat: closed loop, answered at the first reply text.
import { ask } from './api-ask.js';
import type { ApiGatewayChild } from './api-child.js';
import { closedLoop, type LoadFigures } from './load.js';

/**
 * Sends `messages` messages (session `<prefix>-<n>` each) with `concurrency` in flight, a slot freed at the first
 * reply text (the rest of each stream, the final edit the API paces 250 ms later, is read in the background); resolves
 * once every stream ended. `drainSeconds`: from the last first text to the last stream's end.
 */
export async function burstThroughApi(params: { child: ApiGatewayChild; messages: number; concurrency: number; prefix: string }): Promise<LoadFigures & { drainSeconds: number }> {
  const ends: Promise<number>[] = [];
  const run = await closedLoop({
    messages: params.messages,
    concurrency: params.concurrency,
    send: async ({ n }) => {
      const times = await ask({ child: params.child, session: `${params.prefix}-${n}`, text: `message ${n}: please note this down` });
      // Handled now (a failure is thrown by the Promise.all below), so a stream failing mid-run is no unhandled rejection.
      times.doneMs.catch(() => undefined);
      ends.push(times.doneMs);
    },
  });
  const lastFirstText = performance.now();
  await Promise.all(ends);
  return { ...run, drainSeconds: (performance.now() - lastFirstText) / 1000 };
}
