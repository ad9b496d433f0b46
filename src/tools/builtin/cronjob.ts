import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  action: z.enum(['create', 'list', 'update', 'pause', 'resume', 'run', 'remove']).describe('What to do; list shows every job with its id.'),
  job_id: z.string().optional().describe('The job (update, pause, resume, run, remove); list shows the ids.'),
  name: z.string().optional().describe('Short title of the job (create, update); defaults to the start of the prompt.'),
  prompt: z
    .string()
    .optional()
    .describe('create (required), update: the self-contained instruction the job runs with in a fresh session that does not see this conversation.'),
  schedule: z
    .string()
    .optional()
    .describe('create (required), update: a 5-field cron expression ("0 8 * * 1-5"), "every 2h", "in 20m", or "2026-12-02 09:00".'),
  deliver: z
    .string()
    .optional()
    .describe('Where the output goes: "origin" (this chat, the default), "home" (the home channel set with /sethome), "<platform>:<chat>[:<thread>]", or several comma-separated.'),
});

/** `cronjob`: Hermes Agent's tool (same name and arguments) over the profile's scheduled jobs. */
export const cronjobTool = defineTool({
  name: 'cronjob',
  description:
    'Schedule work for later or on a repeat: reminders ("remind me at 9 to call the bank"), recurring reports, ' +
    'watches ("tell me when …"). Each run is a fresh session with your tools that does NOT see this conversation, ' +
    'so the prompt must be self-contained: say exactly what to do, with names, paths, URLs and the user\'s words.\n' +
    'schedule: turn the user\'s words into one of: a 5-field cron expression (minute hour day month weekday; ' +
    '"every weekday at 8" = "0 8 * * 1-5", "every Monday at 9:30" = "30 9 * * 1", "daily at 18:00" = "0 18 * * *"), ' +
    'an interval ("every 30m", "every 2h"), a delay for one-shots ("in 20m", "in 2 hours") or a one-shot time ' +
    '("2026-12-02 09:00", read in the configured time zone shown in the answer). Reminders are one-shots.\n' +
    'deliver defaults to this chat. For "only tell me when …" jobs, tell the prompt to answer exactly [SILENT] when ' +
    'there is nothing to report: such a run delivers nothing.\n' +
    'Answer the user with the job id, the schedule in words with its time zone and the next run from the result. ' +
    'list before update/pause/resume/run/remove when you do not know the id; run makes a job due now.',
  input,
  parallel: 'never',
  offeredWith: 'cron',
  toolsets: ['cronjob'],
  progress: { emoji: '⏰', arg: 'action' },
  handler: async (args, ctx) => {
    if (ctx.cron === undefined) throw new ToolError('scheduled jobs are not available in this gateway (the scheduler does not run); nothing was scheduled.');
    // A run of a job (or a heartbeat, a check) that schedules or changes jobs multiplies itself unseen: as in Hermes
    // Agent, the turns the system starts may only look.
    if (ctx.startedBy !== undefined && args.action !== 'list') {
      throw new ToolError(`cronjob ${args.action} refused: this turn was started by a ${ctx.startedBy}, not by the user, and may only list jobs; answer with what the user should be told instead.`);
    }
    return ctx.cron.manage({
      action: args.action,
      ...(args.job_id !== undefined ? { jobId: args.job_id } : {}),
      ...(args.name !== undefined ? { name: args.name } : {}),
      ...(args.prompt !== undefined ? { prompt: args.prompt } : {}),
      ...(args.schedule !== undefined ? { schedule: args.schedule } : {}),
      ...(args.deliver !== undefined ? { deliver: args.deliver } : {}),
      ...(ctx.origin !== undefined ? { origin: ctx.origin } : {}),
      signal: ctx.signal,
    });
  },
});
