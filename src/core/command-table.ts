/**
 * The gateway's own commands, in one table: what /help lists, what parseCommand reads, and what Telegram's menu and
 * Discord's slash commands register. A new command is one entry here (plus its handler in control.ts or runner.ts).
 */
export interface CommandSpec {
  /** The command's name, lower case, without `/` (Telegram: a-z, 0-9, _ only, at most 32). */
  readonly name: string;
  /** Other words that mean the same command (`/reset` is `/new`); not in the menus. */
  readonly aliases?: readonly string[];
  /** The /help line, with its usage: `/approve [session|always] — …`. */
  readonly help: string;
  /** The menu's short description (Telegram ≤ 256, Discord ≤ 100 characters). */
  readonly menu: string;
  /** The command takes text after it; Discord registers it as one optional string option of this name and description. */
  readonly arg?: { readonly name: string; readonly description: string };
}

/** Every command the gateway answers, in /help and menu order. */
export const commandTable = [
  { name: 'new', aliases: ['reset'], help: '/new (or /reset) — end this conversation and start a fresh one', menu: 'Start a fresh conversation' },
  { name: 'stop', help: '/stop — stop the answer being written now', menu: 'Stop the answer being written' },
  {
    name: 'status',
    help: '/status — what the gateway is doing for this chat, the token usage of the conversation, and how full its context is',
    menu: 'What the gateway is doing for this chat',
  },
  { name: 'memory', help: '/memory — what the agent remembers (its notes and what it knows about you)', menu: 'What the agent remembers about you' },
  {
    name: 'compress',
    help: '/compress — compress this conversation now: its middle becomes a summary and it goes on in a new session',
    menu: 'Compress this conversation now (summary, new session)',
  },
  {
    name: 'skills',
    help: '/skills — the skills you can run here, each as its own command: /<skill-name> [what you want]',
    menu: 'List your skills (each runs as its own /command)',
  },
  { name: 'cron', help: '/cron — the scheduled jobs: schedule, next run, last outcome', menu: 'The scheduled jobs and their next runs' },
  {
    name: 'sethome',
    help: '/sethome — make this chat the home channel: where jobs and notices with "home" as target go',
    menu: 'Make this chat the home channel for jobs',
  },
  {
    name: 'approve',
    help: '/approve [session|always] — allow the dangerous command waiting for approval (once, for this conversation, or always); owner only',
    menu: 'Allow the command waiting for approval (owner)',
    arg: { name: 'scope', description: 'session or always (empty: once)' },
  },
  { name: 'deny', help: '/deny — refuse the dangerous command waiting for approval; owner only', menu: 'Refuse the command waiting for approval (owner)' },
  {
    name: 'model',
    help: '/model [name] — the model of this conversation and the ones it can switch to; with a name, its next messages use that model (/model default: back)',
    menu: 'Show or switch the model of this conversation',
    arg: { name: 'name', description: 'the model to switch to (empty: list them)' },
  },
  {
    name: 'usage',
    help: '/usage — the tokens this conversation used (sub-agents included) and its estimated cost (with model.pricing)',
    menu: 'Tokens used and estimated cost',
  },
  {
    name: 'title',
    help: '/title [text] — the title of this conversation; with text, sets it',
    menu: 'Show or set the title of this conversation',
    arg: { name: 'text', description: 'the new title (empty: show it)' },
  },
  { name: 'sessions', help: "/sessions — this chat's recent conversations, newest first, numbered for /resume", menu: 'List the recent conversations of this chat' },
  {
    name: 'resume',
    help: '/resume N — go back to conversation N of /sessions (or a short id): your next message continues it',
    menu: 'Go back to an earlier conversation (/sessions)',
    arg: { name: 'session', description: 'its number in /sessions or its short id' },
  },
  {
    name: 'verbose',
    help: '/verbose [on|off|all|new] — tool progress lines in answers for this chat (bare: switch on/off)',
    menu: 'Turn tool progress lines on or off',
    arg: { name: 'mode', description: 'on, off, all or new (empty: switch)' },
  },
  {
    name: 'voice',
    help: '/voice [off|on|tts] — spoken replies in this chat: on answers a voice note with one, tts speaks every reply; the text is always sent (bare: switch on/off)',
    menu: 'Turn voice replies on or off',
    arg: { name: 'mode', description: 'off, on or tts (empty: switch)' },
  },
  {
    name: 'rollback',
    help: '/rollback [N | diff N] — the workspace checkpoints taken before the agent changed files: list them, restore one, or see what changed since',
    menu: 'List or restore workspace checkpoints',
    arg: { name: 'checkpoint', description: 'N to restore, diff N to compare (empty: list)' },
  },
  {
    name: 'retry',
    help: '/retry — answer your last message again: the last answer leaves the conversation and a new one is written (refused while an answer is being written: /stop it first)',
    menu: 'Answer your last message again',
  },
  {
    name: 'undo',
    help: '/undo — drop the last exchange (your last message and its answer) from the conversation (refused while an answer is being written)',
    menu: 'Drop the last exchange from the conversation',
  },
  {
    name: 'queue',
    help: '/queue <text> — send a message without stopping the answer being written: it is answered next',
    menu: 'Send a message to answer next, without interrupting',
    arg: { name: 'text', description: 'the message' },
  },
  {
    name: 'steer',
    help: '/steer <text> — add a message to the answer being written, read at its next model call (no answer running: an ordinary message)',
    menu: 'Add a message to the answer being written',
    arg: { name: 'text', description: 'the message' },
  },
  {
    name: 'context',
    help: "/context — what this conversation's next request is made of (prompt layers, each tool's schema, summary, history) in tokens and as a share of the model's context",
    menu: 'What the next request is made of, in tokens',
  },
  {
    name: 'tools',
    help: '/tools — the tool sets of this platform (on or off) and their tools; `hermes tools enable|disable` changes them',
    menu: 'The tool sets the agent has here',
  },
  {
    name: 'reload_mcp',
    aliases: ['reload-mcp'],
    help: '/reload-mcp — read the MCP servers from config.yaml again and reconnect them; new conversations (/new) get their tools',
    menu: 'Reconnect the MCP servers (their tools reach new conversations)',
  },
  { name: 'help', aliases: ['start'], help: '/help — this list', menu: 'List the commands' },
] as const satisfies readonly CommandSpec[];
