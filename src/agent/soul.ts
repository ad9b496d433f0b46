import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Profile } from '../home/profile.js';
import { packageRoot } from '../util/package-root.js';

/**
 * The system prompt: the profile's SOUL.md (else the bundled one), then config's `agent.system_prompt` when
 * set, then facts the agent needs about where it runs.
 */
export function buildSystemPrompt(params: { profile: Profile; extra: string | undefined; workspace: string }): string {
  const persona =
    readFirst({ paths: [params.profile.soulPath, path.join(packageRoot(), 'profiles', 'SOUL.md')] }) ?? 'You are a helpful assistant.';
  return [
    persona.trim(),
    ...(params.extra !== undefined && params.extra.trim() !== '' ? ['', params.extra.trim()] : []),
    '',
    `Profile: ${params.profile.name}. Your workspace (where your file and terminal tools work) is ${params.workspace}.`,
  ].join('\n');
}

/** The first of `paths` that can be read and is not blank. */
function readFirst(params: { paths: readonly string[] }): string | undefined {
  for (const file of params.paths) {
    try {
      const text = readFileSync(file, 'utf8');
      if (text.trim() !== '') return text;
    } catch {
      // missing or unreadable: try the next one
    }
  }
  return undefined;
}
