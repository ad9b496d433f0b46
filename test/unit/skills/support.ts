import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { skillsCapability } from '../../../src/skills/capability.js';
import type { SkillManageRequest, SkillsCapability } from '../../../src/skills/types.js';

/** A temp skills/ folder with the capability over it and the log lines it wrote. */
export interface SkillsRig {
  readonly dir: string;
  readonly skills: SkillsCapability;
  readonly logs: string[];
  /** manage() with a live signal. */
  manage(request: SkillManageRequest & { sessionId?: string }): Promise<string>;
  close(): void;
}

/** Makes a SkillsRig whose reserved names are the gateway's (new, stop, status, memory, compress, help, reset, start). */
export function skillsRig(): SkillsRig {
  const root = mkdtempSync(path.join(os.tmpdir(), 'hermes-skills-'));
  const dir = path.join(root, 'skills');
  const logs: string[] = [];
  const logger = { warn: (_o: object, msg?: string) => logs.push(`warn ${msg ?? ''}`), info: (_o: object, msg?: string) => logs.push(`info ${msg ?? ''}`) };
  const skills = skillsCapability({ dir, reservedNames: ['new', 'stop', 'status', 'memory', 'compress', 'help', 'reset', 'start'], logger });
  return {
    dir,
    skills,
    logs,
    manage: (request) => skills.manage({ ...request, signal: new AbortController().signal }),
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}
