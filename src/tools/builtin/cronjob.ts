import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  action: z.enum(['create', 'list', 'update', 'pause', 'resume', 'run', 'remove']),
  job_id: z.string().optional(),
  name: z.string().optional(),
  prompt: z.string().optional().describe('create (required), update.'),
  schedule: z
    .string()
    .optional()
    .describe("create (required), update: 5-field cron ('0 8 * * 1-5'), 'every 2h', 'in 20m' or '2026-12-02 09:00' (one-shots), in the owner's time zone."),
  deliver: z
    .string()
    .optional()
    .describe('origin (default: this chat), home or platform:chat[:thread]; comma-separated for several.'),
});

/** `cronjob`: Hermes Agent's tool (same name and arguments) over the profile's scheduled jobs. */
export const cronjobTool = defineTool({
  name: 'cronjob',
  description:
    'Schedule reminders, recurring tasks and watches. Each run is a fresh session with your tools that does NOT see ' +
    "this chat: the prompt must be self-contained (what to do, names, paths, the user's words). A run answering exactly " +
    "[SILENT] delivers nothing (for 'tell me when' jobs). list shows job ids; run makes a job due now.",
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
