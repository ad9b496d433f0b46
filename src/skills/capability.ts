import path from 'node:path';
import type { SkillManageRequest, SkillsCapability } from './types.js';
import { ToolError } from '../core/errors.js';
import { findSkill, loadSkills } from './load.js';
import { manageSkill } from './manage.js';
import type { SkillsLogger } from './types.js';
import { listText, viewText } from './view.js';

/** The logging the skills capability does (pino fits): refused writes at info, writes done at info. */
export interface SkillsCapabilityLogger extends SkillsLogger {
  info(obj: object, msg?: string): void;
}

/** Throws the ToolError for a call that was cancelled before it ran. */
function assertNotAborted(params: { signal: AbortSignal }): void {
  if (params.signal.aborted) throw new ToolError('Cancelled; nothing was done.');
}

/**
 * The `skills_list` / `skill_view` / `skill_manage` capability over a profile's skills/ folder. Every call reads the
 * folder afresh (loadSkills: a few small files; no cache to go stale). `reservedNames` are refused as new skill names
 * (the gateway's commands and their aliases, so /<skill-name> never shadows one).
 */
export function skillsCapability(params: { dir: string; reservedNames: readonly string[]; logger?: SkillsCapabilityLogger }): SkillsCapability {
  const { dir, reservedNames, logger } = params;
  // Broken skills are logged where the prompt is built, not again on every tool call.
  const load = (): ReturnType<typeof loadSkills> => loadSkills({ dir });
  return {
    list: async ({ category, signal }) => {
      assertNotAborted({ signal });
      return listText({ catalog: load(), category });
    },
    view: async ({ name, filePath, signal }) => {
      assertNotAborted({ signal });
      const catalog = load();
      const skill = findSkill({ catalog, name: name.trim() });
      if (skill === undefined) {
        const broken = catalog.broken.find((b) => path.basename(path.dirname(b.path)) === name.trim());
        if (broken !== undefined) throw new ToolError(`Skill '${name}' is broken on disk (${broken.reason}); it cannot be loaded until it is repaired.`);
        throw new ToolError(`Skill '${name}' not found. Use skills_list to see the available skills.`);
      }
      return viewText({ skill, filePath });
    },
    manage: async (request: SkillManageRequest & { sessionId?: string; signal: AbortSignal }) => {
      assertNotAborted({ signal: request.signal });
      try {
        const text = manageSkill({ root: dir, catalog: load(), request, reservedNames, sessionId: request.sessionId });
        logger?.info({ action: request.action, skill: request.name, ...(request.filePath ? { file: request.filePath } : {}) }, 'skill changed');
        return text;
      } catch (error) {
        if (error instanceof ToolError) {
          logger?.info({ action: request.action, skill: request.name, reason: error.message.split('\n')[0] }, 'skill change refused');
          throw error;
        }
        // A filesystem failure (disk full, a file where a folder should be): one line, and a readable answer.
        const code = (error as NodeJS.ErrnoException).code ?? 'error';
        logger?.warn({ action: request.action, skill: request.name, code }, 'skill change failed on disk');
        throw new ToolError(`skill_manage ${request.action} failed on disk (${code}); the skill may need a look (skill_view).`);
      }
    },
  };
}
