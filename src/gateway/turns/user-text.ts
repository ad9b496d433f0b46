import { parseCommand } from '../../core/commands.js';
import type { MessageEvent } from '../../core/adapter.js';

/**
 * Expands `/<skill-name> [text]` into the skill's body plus the user's text (see skill-command.ts); undefined when
 * the name is no usable skill, and the message's own words are sent.
 */
export type SkillExpander = (params: { name: string; args: string; platform: string }) => string | undefined;

/**
 * The words of a message: the text after `/queue` or `/steer` (how it was sent is not part of it), a skill command's
 * expansion when `expandSkill` knows it, else the text as written.
 */
function wordsOf(params: { event: MessageEvent; expandSkill: SkillExpander | undefined }): string {
  const { event, expandSkill } = params;
  const command = parseCommand({ text: event.text });
  if (command.kind === 'command' && (command.name === 'queue' || command.name === 'steer') && command.args !== '') return command.args;
  if (expandSkill === undefined || command.kind !== 'unknown') return event.text;
  return expandSkill({ name: command.name, args: command.args, platform: event.platform }) ?? event.text;
}

/**
 * The text the agent sees for one inbound message: the words (a skill command expanded), then the files that came with
 * it, each followed by its text when `documents` has it (by path: turnDocuments).
 */
export function userTextFor(params: { event: MessageEvent; expandSkill?: SkillExpander | undefined; documents?: ReadonlyMap<string, string> }): string {
  const { event } = params;
  const lines: string[] = [];
  if (event.text.trim() !== '') lines.push(wordsOf({ event, expandSkill: params.expandSkill }));
  for (const item of event.media) {
    const details = [item.kind, item.mimeType, item.sizeBytes !== undefined ? `${item.sizeBytes} bytes` : undefined]
      .filter((x): x is string => x !== undefined)
      .join(', ');
    lines.push(`[Attached file: ${item.path} (${details})${item.fileName ? ` named "${item.fileName}"` : ''}]`);
    const text = params.documents?.get(item.path);
    if (text !== undefined) lines.push(text);
  }
  if (event.replyToId !== undefined && lines.length === 0) lines.push('(empty message)');
  return lines.join('\n');
}

/** A short session title from the first message (of `/queue text` or `/steer text`: the text). */
export function titleFor(params: { text: string }): string | null {
  const command = parseCommand({ text: params.text });
  const words = command.kind === 'command' && (command.name === 'queue' || command.name === 'steer') ? command.args : params.text;
  const line = words.trim().split('\n')[0]?.trim() ?? '';
  if (line === '') return null;
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
