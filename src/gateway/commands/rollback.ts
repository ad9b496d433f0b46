import type { Checkpoints } from '../../checkpoints/checkpoints.js';
import { errorMessage } from '../../util/error-text.js';
import { formatWallTime } from '../../util/schedule/zoned-time.js';

/** Most checkpoints /rollback lists. */
const LISTED = 20;

/**
 * `/rollback` lists the workspace's checkpoints (newest first, numbered), `/rollback N` restores one (the state before
 * becomes a checkpoint of its own), `/rollback diff N` shows what changed since it, cut to `maxLength`.
 */
export async function rollbackReply(params: { args: string; checkpoints: Checkpoints | undefined; timeZone: string; maxLength: number }): Promise<string> {
  const { checkpoints, timeZone } = params;
  if (checkpoints === undefined) return 'Checkpoints are off here: checkpoints.enabled is false in config.yaml, or git is not installed (hermes doctor says which).';
  const words = params.args.trim().split(/\s+/).filter((word) => word !== '');
  const usage = 'Use /rollback to list the checkpoints, /rollback N to restore one, /rollback diff N to see what changed since it.';
  const when = (at: number): string => formatWallTime({ atMs: at, timeZone });
  try {
    if (words.length === 0) {
      const all = await checkpoints.list();
      if (all.length === 0) return 'No checkpoints yet: one is taken before the agent writes, patches or deletes files in the workspace.';
      const lines = all.slice(0, LISTED).map((checkpoint) => {
        const folder = checkpoints.relativeRoot({ checkpoint });
        return `${checkpoint.number}. ${when(checkpoint.at)} before ${checkpoint.reason}${folder === '' ? '' : ` (in ${folder}/)`}`;
      });
      const more = all.length > LISTED ? [`(${all.length - LISTED} older not shown)`] : [];
      return ['Checkpoints of the workspace, newest first:', ...lines, ...more, '', '/rollback N restores one; /rollback diff N shows what changed since it.'].join('\n');
    }
    const diff = words[0]?.toLowerCase() === 'diff';
    const number = Number(diff ? words[1] : words[0]);
    if (!Number.isInteger(number) || number < 1 || words.length > (diff ? 2 : 1)) return usage;
    if (diff) {
      const text = (await checkpoints.diff({ number })).trimEnd();
      if (text === '') return `Nothing changed since checkpoint ${number}.`;
      const head = `Changes since checkpoint ${number}:\n`;
      const room = params.maxLength - head.length - 20;
      return head + (text.length > room ? `${text.slice(0, room)}\n… (cut)` : text);
    }
    const { checkpoint, restored, removed } = await checkpoints.restore({ number });
    return (
      `Restored the workspace to checkpoint ${number} (${when(checkpoint.at)}, before ${checkpoint.reason}): ` +
      `${restored} file${restored === 1 ? '' : 's'} put back, ${removed} made since removed. ` +
      'What was there before is checkpoint 1 now: /rollback 1 undoes this.'
    );
  } catch (error) {
    return `Could not ${words.length === 0 ? 'list the checkpoints' : 'do that'}: ${errorMessage(error)}. ${usage}`;
  }
}
