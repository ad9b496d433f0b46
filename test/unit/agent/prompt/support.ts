import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppConfig } from '../../../../src/app/config-schema.js';
import { appConfigSchema } from '../../../../src/app/config-schema.js';
import { ensureProfileDirs, resolveProfile, type Profile } from '../../../../src/home/index.js';
import type { PromptLogger } from '../../../../src/agent/prompt/types.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

/** A temp profile with a workspace, a config built from a config.yaml-shaped object, and a recording logger. */
export interface PromptRig {
  readonly home: string;
  readonly profile: Profile;
  readonly workspace: string;
  readonly warnings: string[];
  readonly logger: PromptLogger;
  config(tree?: Record<string, unknown>): AppConfig;
  close(): void;
}

/** Makes a PromptRig; `workspace` defaults to the profile's workspace/. */
export function promptRig(params: { workspace?: (home: string) => string } = {}): PromptRig {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-prompt-'));
  const profile = resolveProfile({ hermesHome: home, name: 'work' });
  ensureProfileDirs({ profile });
  const workspace = params.workspace ? params.workspace(home) : profile.workspaceDir;
  mkdirSync(workspace, { recursive: true });
  const warnings: string[] = [];
  return {
    home,
    profile,
    workspace,
    warnings,
    logger: { warn: (_obj, msg) => warnings.push(msg ?? '') },
    config: (tree = {}) => {
      const parsed = configSchema.parse({ timezone: 'Europe/Berlin', ...tree });
      return { ...parsed, tools: { ...parsed.tools, workspace } };
    },
    close: () => rmSync(home, { recursive: true, force: true }),
  };
}
