import type { JobStore } from '../store/job-store.js';
import type { CronCapability } from '../tools/capabilities.js';
import { ToolError } from '../tools/tool.js';
import type { Clock } from '../util/clock.js';
import { jobAction, type JobActionDeps } from './actions.js';

/**
 * The `cronjob` tool's capability over the profile's jobs store. `timeZone` is config `timezone` (or the host's);
 * `poke` wakes the scheduler after a change. Refusals become ToolErrors the model reads and acts on.
 */
export function cronCapability(params: { store: JobStore; timeZone: string; clock: Clock; poke: () => void }): CronCapability {
  const deps: JobActionDeps = { store: params.store, timeZone: params.timeZone, clock: params.clock, poke: params.poke };
  return {
    manage: async (request) => {
      const { action, jobId, name, prompt, schedule, deliver, origin } = request;
      const result = jobAction({ deps, action, jobId, name, prompt, schedule, deliver, origin });
      if (!result.ok) throw new ToolError(`cronjob ${request.action} refused: ${result.error}`);
      return result.text;
    },
  };
}
