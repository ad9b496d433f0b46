import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Profile } from '../home/profile.js';
import { packageRoot } from '../util/package-root.js';

/**
 * The system prompt: config's `agent.system_prompt` if set, else the profile's SOUL.md, else the bundled one;
 * followed by facts the agent needs about where it runs.
 */
export function buildSystemPrompt(params: { profile: Profile; configured: string | undefined; workspace: string }): string {
  const persona = params.configured ?? readFirst({ paths: [params.profile.soulPath, path.join(packageRoot(), 'profiles', 'SOUL.md')] }) ?? 'You are a helpful assistant.';
  return [
    persona.trim(),
    '',
    `Profile: ${params.profile.name}. Your workspace (where your file and terminal tools work) is ${params.workspace}.`,
  ].join('\n');
}

function readFirst(params: { paths: readonly string[] }): string | undefined {
  for (const file of params.paths) {
    try {
      const text = readFileSync(file, 'utf8');
      if (text.trim() !== '') return text;
    } catch {
      // try the next one
    }
  }
  return undefined;
}
