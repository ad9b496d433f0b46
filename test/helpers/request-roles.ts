import type { CapturedRequest } from '../fakes/openai/server.js';

/** A recorded request's non-system messages as `role:content` lines (an assistant's tool calls as their names). */
export function roles(request: CapturedRequest | undefined): string[] {
  return (request?.body.messages ?? [])
    .filter((m) => m['role'] !== 'system')
    .map((m) => {
      const calls = m['tool_calls'] as { function: { name: string } }[] | undefined;
      return `${String(m['role'])}:${calls ? calls.map((c) => c.function.name).join(',') : contentText(m['content'])}`;
    });
}

/** A message content's text: a string as it is; of a parts array (a user message with images), its text parts joined. */
export function contentText(content: unknown): string {
  if (!Array.isArray(content)) return String(content);
  return (content as { type?: string; text?: string }[]).filter((part) => part.type === 'text').map((part) => part.text ?? '').join('\n');
}

/** The image parts' URLs of a message content (none for a string). */
export function contentImages(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return (content as { type?: string; image_url?: { url?: string } }[]).filter((part) => part.type === 'image_url').map((part) => part.image_url?.url ?? '');
}

/** The content of a request's last user message. */
export function lastUserContent(request: CapturedRequest | undefined): unknown {
  return (request?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content'];
}
