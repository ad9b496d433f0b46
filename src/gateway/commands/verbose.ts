import type { Store, ToolProgressSetting } from '../../store/types.js';

/** What each mode shows, for the reply. */
const described: Readonly<Record<ToolProgressSetting, string>> = {
  all: 'on: a line for every tool call',
  new: 'on: a line when the agent starts using a tool (repeats counted)',
  off: 'off',
};

/** `/verbose [on|off|all|new]`: this chat's tool progress lines (bare: on ⇄ off), kept across restarts; from the next answer on. */
export function verboseReply(params: { args: string; store: Store; sessionKey: string; defaultMode: ToolProgressSetting }): string {
  const { store, sessionKey, defaultMode } = params;
  const current = store.chatToolProgress({ key: sessionKey }) ?? defaultMode;
  // "On" is the configured mode, or `new` when the configuration turns them off.
  const on: ToolProgressSetting = defaultMode === 'off' ? 'new' : defaultMode;
  const word = params.args.trim().toLowerCase();
  const next: ToolProgressSetting | undefined =
    word === '' ? (current === 'off' ? on : 'off') : word === 'on' ? on : word === 'off' || word === 'all' || word === 'new' ? word : undefined;
  if (next === undefined) return `/verbose takes on, off, all or new (bare: switch on ⇄ off). Now: ${described[current]}.`;
  store.setChatToolProgress({ key: sessionKey, mode: next });
  const again = next === 'off' ? ' /verbose turns them back on.' : '';
  return `Tool progress lines for this chat: ${described[next]} (from the next answer on).${again}`;
}
