import type { Command } from 'commander';
import type { GlobalOptions } from './context.js';
import type { CronCliAction, CronCliFields } from './cron-cmd.js';
import type { CliIO } from './output.js';

/** Adds `hermes cron list|add|edit|pause|resume|run|remove|history`. */
export function addCronCommands(params: { program: Command; globals: () => GlobalOptions; io: CliIO; setExit: (code: number) => void }): void {
  const { globals, io, setExit } = params;
  const cron = params.program.command('cron').description('scheduled jobs: reminders and recurring work the agent runs and delivers');
  const run = async (action: CronCliAction, jobId?: string, fields?: CronCliFields): Promise<void> =>
    setExit(await (await import('./cron-cmd.js')).cronCommand({ options: globals(), io, action, jobId, ...(fields ? { fields } : {}) }));
  const fieldOptions = (command: Command): Command =>
    command
      .option('--name <name>', 'a short title')
      .option('--prompt <text>', 'the self-contained instruction each run gets (a fresh session)')
      .option('--schedule <text>', 'a cron expression ("0 8 * * 1-5"), "every 2h", "in 20m" or "2026-12-02 09:00" (config timezone)')
      .option('--deliver <targets>', '"home", "home:<platform>" or "<platform>:<chat>[:<thread>]" (comma-separated); chats the profile talks with');
  cron.command('list').description('every job: schedule with time zone, next run, last run and outcome, targets').action(async () => run('list'));
  fieldOptions(cron.command('add').description('add a job (--prompt, --schedule and --deliver are needed)')).action(async (opts: CronCliFields) => run('add', undefined, opts));
  fieldOptions(cron.command('edit').description('change a job; options left out stay').argument('<job_id>', 'the id `hermes cron list` shows')).action(async (jobId: string, opts: CronCliFields) => run('edit', jobId, opts));
  for (const [name, description] of [
    ['pause', 'pause a job (it keeps its schedule)'],
    ['resume', 'resume a paused job from its next scheduled time'],
    ['run', 'make a job due now (the running gateway runs it once, then goes on with its schedule)'],
    ['remove', 'remove a job and its run history'],
    ['history', "a job's runs: when, outcome, delivery, message ids"],
  ] as const) {
    cron.command(name).description(description).argument('<job_id>', 'the id `hermes cron list` shows').action(async (jobId: string) => run(name, jobId));
  }
}
