import type { JobStore } from '../store/job-store.js';
import type { CronCapability } from '../tools/capabilities.js';
import { ToolError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import { jobAction, type JobActionDeps } from './actions.js';

/**
 * The `cronjob` tool's capability over the profile's jobs store. `timeZone` is config `timezone` (or the host's);
 * `poke` wakes the scheduler after a change; `scrub` takes the profile's known secrets out of what the model writes
 * (a job's name and prompt are stored, like any history). Refusals become ToolErrors the model reads and acts on.
 * `timeZone` is read at each call (the gateway passes a getter: the host's zone costs ICU's data, ~8 MB, once asked).
 */
export function cronCapability(params: { store: JobStore; timeZone: string; clock: Clock; poke: () => void; scrub: (text: string) => string }): CronCapability {
  return {
    manage: async (request) => {
      const deps: JobActionDeps = { store: params.store, timeZone: params.timeZone, clock: params.clock, poke: params.poke };
      const { action, jobId, schedule, deliver, origin } = request;
      const name = request.name === undefined ? undefined : params.scrub(request.name);
      const prompt = request.prompt === undefined ? undefined : params.scrub(request.prompt);
      const result = jobAction({ deps, action, jobId, name, prompt, schedule, deliver, origin });
      if (!result.ok) throw new ToolError(`cronjob ${request.action} refused: ${result.error}`);
      return result.text;
    },
  };
}
