import { Command, Option } from 'commander';
import { packageVersion } from '../util/package-root.js';
import type { GlobalOptions } from './context.js';
import { addCronCommands } from './cron-commands.js';
import { addApprovalsCommands } from './approvals-commands.js';
import { addGatewayCommands } from './gateway-commands.js';
import { addSetupCommands } from './setup/commands.js';
import type { CliIO } from './output.js';
import { positiveOption } from './numeric-option.js';
import { formattingRules } from '../../adapters/index.js';

/** What each group of commands is registered with: the program, its global options, the IO and where exit codes go. */
interface CommandGroupParams {
  readonly program: Command;
  readonly globals: () => GlobalOptions;
  readonly io: CliIO;
  readonly setExit: (code: number) => void;
}

/**
 * Builds the `hermes` command tree; each action resolves to an exit code stored in `exit`. Each command's module
 * (and the SDKs behind it) is imported when that command runs, so `hermes status` does not load discord.js: this
 * file imports only commander and type-only modules (`hermes --version` is answered in main.ts before it loads).
 */
export function buildProgram(params: { io: CliIO; setExit: (code: number) => void }): Command {
  const { io, setExit } = params;
  const program = new Command('hermes')
    .description('Your own LLM agent on Telegram, Slack, Discord, email and SMS — one gateway per profile.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('-p, --profile <name>', 'profile to use (default: the one in HERMES_HOME itself)')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride()
    .showHelpAfterError('(run `hermes help` for the commands)');
  const globals = (): GlobalOptions => program.opts<GlobalOptions>();
  const group: CommandGroupParams = { program, globals, io, setExit };

  // The order here is the order `hermes help` lists the commands in.
  const gateway = program.command('gateway').description('run the messaging gateway');
  addGatewayCommands({ gateway, globals, io, setExit });
  addConfigCommands(group);
  addSessionsCommands(group);
  addPromptCommands(group);
  addMemoryCommands(group);
  addSkillsCommands(group);
  addPairingCommands(group);
  addProfileCommands(group);
  addHostCommands(group);

  addCronCommands({ program, globals, io, setExit });
  addApprovalsCommands({ program, globals, io, setExit });

  addSetupCommands({ program, globals, io, setExit });

  addChatCommand(group);
  return program;
}

/** A commander action that stores the exit code `action` resolves to. */
function exitWith(params: { setExit: (code: number) => void; action: () => Promise<number> | number }): () => Promise<void> {
  return async (): Promise<void> => params.setExit(await params.action());
}

/** Adds `hermes config validate|show`. */
function addConfigCommands(params: CommandGroupParams): void {
  const { globals, io, setExit } = params;
  const config = params.program.command('config').description('check and print the profile configuration');
  config.command('validate').description('check config.yaml and .env; precise errors with file and key').action(exitWith({ setExit, action: async () => (await import('./config-cmd.js')).configValidate({ options: globals(), io }) }));
  config.command('show').description('print the effective config (defaults filled in, secrets as ***)').action(exitWith({ setExit, action: async () => (await import('./config-cmd.js')).configShow({ options: globals(), io }) }));
}

/** Adds `hermes sessions list|search`. */
function addSessionsCommands(params: CommandGroupParams): void {
  const { globals, io, setExit } = params;
  const sessions = params.program.command('sessions').description('look at stored conversations');
  sessions
    .command('list')
    .description('recent sessions, newest first')
    .option('-n, --limit <n>', 'how many', '20')
    .action(async (opts: { limit: string }) => setExit(await (await import('./sessions-cmd.js')).sessionsList({ options: globals(), io, limit: positive(opts.limit) })));
  sessions
    .command('search')
    .description('full-text search: the best of the newest 500 matching messages')
    .argument('<query...>', 'words to find')
    .option('-n, --limit <n>', 'how many hits', '20')
    .action(async (query: string[], opts: { limit: string }) =>
      setExit(await (await import('./sessions-cmd.js')).sessionsSearch({ options: globals(), io, query: query.join(' '), limit: positive(opts.limit) })),
    );
}

/** Adds `hermes prompt show`. */
function addPromptCommands(params: CommandGroupParams): void {
  const { globals, io, setExit } = params;
  const prompt = params.program.command('prompt').description("see what the model is told (the system prompt, layer by layer)");
  prompt
    .command('show')
    .description("a session's stored system prompt, or what a new session gets now; each layer's size first")
    .option('--session <id>', 'a session (full id or the short id `hermes sessions list` shows)')
    .option('--platform <name>', `for a new session: ${Object.keys(formattingRules).join(', ')}`, 'terminal')
    .option('--context', "instead of the text: the next request's size by part (layers, each tool, history) in tokens and as a share of the model's context")
    .action(async (opts: { session?: string; platform: string; context?: boolean }) =>
      setExit(await (await import('./prompt-cmd.js')).promptShow({ options: globals(), io, platform: opts.platform, context: opts.context === true, ...(opts.session !== undefined ? { session: opts.session } : {}) })),
    );
}

/** Adds `hermes memory show|edit`. */
function addMemoryCommands(params: CommandGroupParams): void {
  const { globals, io, setExit } = params;
  const memory = params.program.command('memory').description("the agent's memory: memories/MEMORY.md (its notes) and USER.md (about you)");
  memory
    .command('show')
    .description('print the entries, numbered, with how full each file is')
    .addOption(new Option('--target <target>', 'only one file: memory (MEMORY.md) or user (USER.md)').choices(['memory', 'user']))
    .action(async (opts: { target?: string }) => setExit(await (await import('./memory-cmd.js')).memoryShow({ options: globals(), io, ...memoryTarget(opts.target) })));
  memory
    .command('edit')
    .description('open a memory file in $VISUAL/$EDITOR; the result is checked (format, limit, threat scan) before it is saved')
    .addOption(new Option('--target <target>', 'memory (MEMORY.md, the default) or user (USER.md)').choices(['memory', 'user']))
    .action(async (opts: { target?: string }) => setExit(await (await import('./memory-cmd.js')).memoryEdit({ options: globals(), io, ...memoryTarget(opts.target) })));
}

/** Adds `hermes skills list|show|delete|install`. */
function addSkillsCommands(params: CommandGroupParams): void {
  const { globals, io, setExit } = params;
  const skills = params.program.command('skills').description("the agent's skills: skills/[category/]<name>/SKILL.md procedures");
  skills.command('list').description('every skill (name, category, version, description), then the broken ones and why').action(exitWith({ setExit, action: async () => (await import('./skills-cmd.js')).skillsList({ options: globals(), io }) }));
  skills
    .command('show')
    .description("a skill's front matter, its files and its body")
    .argument('<name>')
    .action(async (name: string) => setExit(await (await import('./skills-cmd.js')).skillsShow({ options: globals(), io, name })));
  skills
    .command('delete')
    .description("remove a skill's folder (asks on a terminal; --yes does not)")
    .argument('<name>')
    .option('--yes', 'do not ask')
    .action(async (name: string, opts: { yes?: boolean }) => setExit(await (await import('./skills-delete.js')).skillsDelete({ options: globals(), io, name, yes: opts.yes === true })));
  skills
    .command('install')
    .description('install a local skill folder or .tar.gz after a size check and the threat scan (nothing is fetched)')
    .argument('<path>', 'a folder holding SKILL.md, or a .tar.gz/.tgz of one')
    .option('--category <category>', 'put it in skills/<category>/')
    .option('--force', 'replace an installed skill of the same name')
    .action(async (source: string, opts: { category?: string; force?: boolean }) =>
      setExit(await (await import('./skills-install.js')).skillsInstall({ options: globals(), io, source, force: opts.force === true, ...(opts.category !== undefined ? { category: opts.category } : {}) })),
    );
}

/** Adds `hermes pairing list|approve|revoke`. */
function addPairingCommands(params: CommandGroupParams): void {
  const { globals, io, setExit } = params;
  const pairing = params.program.command('pairing').description('let in people who message the bot (pairing codes)');
  pairing
    .command('list')
    .description('pending pairing requests and approved senders, per platform')
    .argument('[platform]', 'only this platform (e.g. telegram)')
    .action(async (platform: string | undefined) => setExit((await import('./pairing-cmd.js')).pairingList({ options: globals(), io, platform })));
  pairing
    .command('approve')
    .description('let in the sender who got this pairing code')
    .argument('<platform>', 'platform the code came from (e.g. telegram)')
    .argument('<code...>', 'the pairing code (case and spaces do not matter)')
    .action(async (platform: string, code: string[]) => setExit((await import('./pairing-cmd.js')).pairingApprove({ options: globals(), io, platform, code: code.join('') })));
  pairing
    .command('revoke')
    .description("take an approved sender's access away")
    .argument('<platform>', 'platform of the sender (e.g. telegram)')
    .argument('<sender_id>', 'the sender id `hermes pairing list` shows')
    .action(async (platform: string, senderId: string) => setExit((await import('./pairing-cmd.js')).pairingRevoke({ options: globals(), io, platform, senderId })));
}

/** Adds `hermes profile create|list|use|show|rename|delete`. */
function addProfileCommands(params: CommandGroupParams): void {
  const { globals, io, setExit } = params;
  const profile = params.program.command('profile').description('create and choose profiles (work, personal, ...)');
  profile
    .command('create')
    .description("make a new profile from the templates with the default profile's model, or clone one (never its tokens, allowlists or history)")
    .argument('<name>', 'profile name: lowercase letters, digits, - and _')
    .option('--clone', 'clone the current profile')
    .option('--clone-from <other>', 'clone this profile')
    .option('--description <text>', 'what the profile is for')
    .option('--with-secrets', "also copy the model's key (its .env lines); the model section itself is always inherited")
    .action(async (name: string, opts: { clone?: boolean; cloneFrom?: string; description?: string; withSecrets?: boolean }) => {
      const from = opts.cloneFrom ?? (opts.clone ? (await import('./context.js')).profileFrom({ options: globals(), io }).name : undefined);
      const { profileCreate } = await import('./profile-cmd.js');
      setExit(profileCreate({ io, name, withSecrets: opts.withSecrets === true, ...(from !== undefined ? { cloneFrom: from } : {}), ...(opts.description !== undefined ? { description: opts.description } : {}) }));
    });
  profile
    .command('list')
    .description('every profile and whether its gateway runs (* marks the one commands use)')
    .action(async () => setExit((await import('./profile-cmd.js')).profileList({ io, active: (await import('./context.js')).profileFrom({ options: globals(), io }).name })));
  profile
    .command('use')
    .description('make a profile the default for commands without -p')
    .argument('<name>')
    .action(async (name: string) => setExit((await import('./profile-cmd.js')).profileUse({ io, name })));
  profile.command('show').description('everything about one profile: gateway, platforms, model, port, service, sizes').argument('<name>').action(async (name: string) => setExit(await (await import('./profile-show.js')).profileShow({ io, name })));
  profile.command('rename').description('rename a stopped profile (moves its folder)').argument('<old>').argument('<new>').action(async (from: string, to: string) => setExit((await import('./profile-rename.js')).profileRename({ io, from, to })));
  profile
    .command('delete')
    .description('stop and delete a profile with its history and secrets (asks you to type the name)')
    .argument('<name>')
    .option('--yes', 'do not ask')
    .action(async (name: string, opts: { yes?: boolean }) => setExit(await (await import('./profile-delete.js')).profileDelete({ io, name, yes: opts.yes === true })));
}

/** Adds `hermes status`, `hermes logs` and `hermes doctor`: how the profiles and this host are doing. */
function addHostCommands(params: CommandGroupParams): void {
  const { program, globals, io, setExit } = params;
  program
    .command('status')
    .description('every profile: gateway running?, platforms connected?, last error')
    .action(exitWith({ setExit, action: async () => (await import('./status-cmd.js')).status({ io, ...(globals().profile !== undefined ? { profile: globals().profile } : {}) }) }));

  program
    .command('logs')
    .description("print the profile's gateway log (pretty); -f follows it")
    .option('-f, --follow', 'keep printing new lines until Ctrl-C')
    .option('-n, --lines <n>', 'how many of the last lines', '100')
    .option('--json', 'print the raw JSON lines')
    .action(async (opts: { follow?: boolean; lines: string; json?: boolean }) =>
      setExit(await (await import('./logs-cmd.js')).logs({ options: globals(), io, lines: positive(opts.lines, 100, 100_000), follow: opts.follow === true, json: opts.json === true })),
    );
  const tools = program.command('tools').description('which tool sets the agent has, per profile or per platform (toolsets, platform_toolsets)');
  tools
    .command('list')
    .description('each tool set, on or off, with its tools')
    .option('--platform <name>', 'one platform (telegram, slack, discord, email, sms, terminal)')
    .action(async (opts: { platform?: string }) => setExit(await (await import('./tools-cmd.js')).toolsList({ options: globals(), io, ...(opts.platform === undefined ? {} : { platform: opts.platform }) })));
  for (const [verb, on] of [['enable', true], ['disable', false]] as const) {
    tools
      .command(verb)
      .description(`${verb} tool sets (file, terminal, memory, ..., mcp-<server>) in config.yaml`)
      .argument('<names...>')
      .option('--platform <name>', 'only on this platform (platform_toolsets)')
      .action(async (names: string[], opts: { platform?: string }) =>
        setExit(await (await import('./tools-cmd.js')).toolsChange({ options: globals(), io, names, on, ...(opts.platform === undefined ? {} : { platform: opts.platform }) })),
      );
  }
  const mcp = program.command('mcp').description("the profile's MCP servers (tools from other programs: files, GitHub, databases, ...)");
  mcp.command('list').description('each server: how it is reached, its filters, its state and tools in the running gateway').action(exitWith({ setExit, action: async () => (await import('./mcp-cmd.js')).mcpList({ options: globals(), io }) }));
  mcp
    .command('test')
    .description('start or connect to one server now: handshake, its tools, a ping')
    .argument('<name>')
    .action(async (name: string) => setExit(await (await import('./mcp-cmd.js')).mcpTest({ options: globals(), io, name })));
  program.command('doctor').description('check this host and profile: node, sqlite, files, config, model, platforms, port').action(exitWith({ setExit, action: async () => (await import('./doctor-cmd.js')).doctor({ options: globals(), io }) }));
}

/** Adds `hermes chat`. */
function addChatCommand(params: CommandGroupParams): void {
  const { globals, io, setExit } = params;
  params.program
    .command('chat')
    .description('talk to your agent in the terminal (no platform needed)')
    .addOption(new Option('--new', 'start a fresh conversation (as /new does)').conflicts('resume'))
    .option('--resume [id]', 'go back to a stored conversation of this chat (full or short id); bare: the most recent ended one')
    .action(async (opts: { new?: boolean; resume?: string | boolean }) =>
      setExit(await (await import('./chat.js')).chat({ options: globals(), io, session: chatChoice(opts) })),
    );
}

/** Which conversation `hermes chat` starts in, from --new and --resume [id] (commander refuses both at once). */
function chatChoice(opts: { new?: boolean; resume?: string | boolean }): { kind: 'continue' } | { kind: 'new' } | { kind: 'resume'; id?: string } {
  if (opts.new === true) return { kind: 'new' };
  if (typeof opts.resume === 'string') return { kind: 'resume', id: opts.resume };
  return opts.resume === true ? { kind: 'resume' } : { kind: 'continue' };
}

/** The --target option of `hermes memory` (commander already refused anything but memory or user). */
function memoryTarget(text: string | undefined): { target?: 'memory' | 'user' } {
  return text === 'memory' || text === 'user' ? { target: text } : {};
}

function positive(text: string, _fallback = 20, max = 1000): number {
  return positiveOption({ text, option: '-n', max });
}
