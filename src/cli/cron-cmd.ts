import { profileTimeZone } from '../util/schedule/time-zone.js';
import { DEFAULT_PROFILE_NAME } from '../home/profile.js';
import { jobAction, type JobActionDeps, type JobActionName, type JobActionResult } from '../jobs/actions.js';
import { systemClock, type Clock } from '../core/clock.js';
import { loadExistingProfile, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';
import { withProfileStore } from './profile-store.js';

/** What `hermes cron <action>` may do. */
export type CronCliAction = 'list' | 'add' | 'edit' | 'pause' | 'resume' | 'run' | 'remove' | 'history';

/** The fields `add` and `edit` take (--name --prompt --schedule --deliver). */
export interface CronCliFields {
  readonly name?: string | undefined;
  readonly prompt?: string | undefined;
  readonly schedule?: string | undefined;
  readonly deliver?: string | undefined;
}

/** The job operation each CLI action is (`add` creates, `edit` updates). */
const operationOf: Readonly<Record<CronCliAction, JobActionName>> = { list: 'list', add: 'create', edit: 'update', pause: 'pause', resume: 'resume', run: 'run', remove: 'remove', history: 'history' };

/** Runs one action over the store; the CLI has no chat, so "origin" is refused and a target must be named. */
function apply(params: { deps: JobActionDeps; action: CronCliAction; jobId?: string | undefined; fields: CronCliFields }): JobActionResult {
  return jobAction({ deps: params.deps, action: operationOf[params.action], jobId: params.jobId, ...params.fields });
}

/**
 * `hermes cron list | add | edit | pause | resume | run | remove | history`: the profile's scheduled jobs, with the
 * same checks as the `cronjob` tool (schedules, targets the profile talks with). Exit 0 on success, 1 when refused
 * (the reason on stderr), 66 for a profile that does not exist. A running gateway picks the change up on its next tick.
 */
export async function cronCommand(params: { options: GlobalOptions; io: CliIO; action: CronCliAction; jobId?: string | undefined; fields?: CronCliFields; clock?: Clock }): Promise<number> {
  const { io } = params;
  const loaded = await loadExistingProfile(params);
  const clock = params.clock ?? systemClock;
  const flag = loaded.profile.name === DEFAULT_PROFILE_NAME ? '' : ` -p ${loaded.profile.name}`;
  const result = withProfileStore({
    profile: loaded.profile,
    clock,
    missing: 'scheduled jobs',
    hint: `Start the gateway (\`hermes${flag} gateway run\`) and write to the bot: jobs deliver to chats the profile talks with.`,
    use: (store) => apply({ deps: { store, timeZone: profileTimeZone({ config: loaded.config }), clock, poke: () => undefined }, action: params.action, jobId: params.jobId, fields: params.fields ?? {} }),
  });
  if (!result.ok) {
    println({ stream: io.stderr, text: `error: ${loaded.redactor.scrub(result.error)}` });
    return 1;
  }
  println({ stream: io.stdout, text: loaded.redactor.scrub(result.text) });
  return 0;
}
