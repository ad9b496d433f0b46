import type { JobStore } from '../store/job-store.js';
import type { CronCapability } from '../tools/capabilities.js';
import { ToolError } from '../tools/tool.js';
import type { Clock } from '../util/clock.js';
import {
  createJobAction,
  listJobsAction,
  pauseJobAction,
  removeJobAction,
  resumeJobAction,
  runJobAction,
  updateJobAction,
  type JobActionDeps,
  type JobActionResult,
} from './actions.js';

/**
 * The `cronjob` tool's capability over the profile's jobs store. `timeZone` is config `timezone` (or the host's);
 * `poke` wakes the scheduler after a change. Refusals become ToolErrors the model reads and acts on.
 */
export function cronCapability(params: { store: JobStore; timeZone: string; clock: Clock; poke: () => void }): CronCapability {
  const deps: JobActionDeps = { store: params.store, timeZone: params.timeZone, clock: params.clock, poke: params.poke };
  return {
    manage: async (request) => {
      const { origin } = request;
      const common = { deps, jobId: request.jobId };
      let result: JobActionResult;
      switch (request.action) {
        case 'create':
          result = createJobAction({ deps, name: request.name, prompt: request.prompt, schedule: request.schedule, deliver: request.deliver, origin });
          break;
        case 'update':
          result = updateJobAction({ ...common, name: request.name, prompt: request.prompt, schedule: request.schedule, deliver: request.deliver, origin });
          break;
        case 'list':
          result = listJobsAction({ deps });
          break;
        case 'pause':
          result = pauseJobAction(common);
          break;
        case 'resume':
          result = resumeJobAction(common);
          break;
        case 'run':
          result = runJobAction(common);
          break;
        case 'remove':
          result = removeJobAction(common);
          break;
      }
      if (!result.ok) throw new ToolError(`cronjob ${request.action} refused: ${result.error}`);
      return result.text;
    },
  };
}
