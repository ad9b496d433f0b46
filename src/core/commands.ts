import { commandTable, type CommandSpec } from './command-table.js';

/** Commands the gateway itself answers, on the control lane (never behind a running turn). */
export type GatewayCommandName = (typeof commandTable)[number]['name'];

/** Every command the gateway answers (what the platforms' command menus list). */
export const gatewayCommandNames: readonly GatewayCommandName[] = commandTable.map((command) => command.name);

/** What a message's text means to the gateway. */
export type ParsedCommand =
  | { readonly kind: 'command'; readonly name: GatewayCommandName; readonly args: string }
  /** A `/word` the gateway does not answer itself: a skill's name, or a typo (see skill-command.ts). */
  | { readonly kind: 'unknown'; readonly name: string; readonly args: string }
  | { readonly kind: 'none' };

const aliases: Readonly<Record<string, GatewayCommandName>> = Object.fromEntries(
  commandTable.flatMap((command: CommandSpec & { readonly name: GatewayCommandName }) => [command.name, ...(command.aliases ?? [])].map((word) => [word, command.name])),
);

/** Every word the gateway reads as one of its commands (names and aliases): refused as skill names, so /<skill> never shadows one. */
export const gatewayCommandWords: readonly string[] = Object.keys(aliases);

/** True when `/name` (any case) is one of the gateway's own commands or aliases, which no skill can shadow. */
export function isCommandWord(params: { name: string }): boolean {
  return Object.hasOwn(aliases, params.name.toLowerCase());
}

/** One line per command, for /help and for the unknown-command answer. */
export const commandHelp: readonly string[] = commandTable.map((command) => command.help);

/** How skills and the built-in commands share the `/` namespace (for /help and /skills). */
export const skillCommandNote = 'A skill runs as /<skill-name> [text] (on Telegram, - becomes _); a built-in command always wins over a skill of the same name.';

/**
 * Reads a leading slash command; names may hold `-` (skills: `/my-skill do it`). `/etc/hosts …` is not a command
 * (a path); `/cmd@botname` is. A built-in name is always the built-in command, whatever skills exist.
 */
export function parseCommand(params: { text: string }): ParsedCommand {
  const match = /^\/([A-Za-z][A-Za-z0-9_-]*)(?:@\S+)?(?:\s+([\s\S]*))?$/.exec(params.text.trim());
  if (!match) return { kind: 'none' };
  const raw = (match[1] ?? '').toLowerCase();
  const args = (match[2] ?? '').trim();
  const name = Object.hasOwn(aliases, raw) ? aliases[raw] : undefined;
  if (name === undefined) return { kind: 'unknown', name: raw, args };
  return { kind: 'command', name, args };
}

/** The reply to a command the gateway does not know. */
export function unknownCommandReply(params: { name: string }): string {
  return [`Unknown command /${params.name} (no command or skill has that name). The gateway understands:`, ...commandHelp, skillCommandNote].join('\n');
}
