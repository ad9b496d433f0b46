import { platforms } from '../../adapters/index.js';
import { appConfigSchema } from '../app/config-schema.js';
import { UserFacingError } from '../core/errors.js';
import { isToolsetChoice, TOOLSET_NAMES } from '../core/toolset-names.js';
import { toolsetLines } from '../tools/toolsets.js';
import { profileTools } from './profile-tools.js';
import { loadExistingProfile, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';
import { SetupFiles } from './setup/files.js';

/** The platforms a `--platform` may name: the configured kinds and the terminal chat. */
const PLATFORM_NAMES: readonly string[] = [...platforms.map((platform) => platform.name), 'terminal'];

/** Where a profile-wide list applies (no --platform): every platform without its own platform_toolsets. */
const EVERY_PLATFORM = 'every platform';

function checkPlatform(params: { platform?: string | undefined }): void {
  const { platform } = params;
  if (platform === undefined || PLATFORM_NAMES.includes(platform)) return;
  throw new UserFacingError({ message: `unknown platform "${platform}"`, hint: `Use one of: ${PLATFORM_NAMES.join(', ')}.`, exitCode: 64 });
}

/** `hermes tools list [--platform P]`: each tool set on or off (for P, or for every platform without its own list) with its tools. */
export async function toolsList(params: { options: GlobalOptions; io: CliIO; platform?: string }): Promise<number> {
  checkPlatform(params);
  const { config } = await loadExistingProfile(params);
  const { toolsets: policy, builtin } = profileTools({ config });
  const tools = builtin.list();
  const mcp = Object.entries(config.mcp_servers).map(([name, server]) => ({ name, detail: server.enabled ? 'its tools (`hermes mcp list`)' : 'disabled (enabled: false)' }));
  const platform = params.platform ?? EVERY_PLATFORM;
  for (const text of toolsetLines({ platform, toolsets: policy.setsFor({ platform }), tools, mcp })) println({ stream: params.io.stdout, text });
  if (params.platform === undefined) {
    for (const [name, list] of Object.entries(config.platform_toolsets)) println({ stream: params.io.stdout, text: `${name} has its own: ${list.join(', ')} (--platform ${name})` });
  }
  return 0;
}

/**
 * `hermes tools enable|disable NAME... [--platform P]`: edits `toolsets` (or `platform_toolsets.P`, starting from what
 * P has now) in config.yaml, keeping the rest of the file; refuses a name that is no tool set, writing nothing.
 */
export async function toolsChange(params: { options: GlobalOptions; io: CliIO; names: readonly string[]; on: boolean; platform?: string }): Promise<number> {
  checkPlatform(params);
  const unknown = params.names.filter((name) => !isToolsetChoice({ name }));
  if (unknown.length > 0) {
    throw new UserFacingError({ message: `not a tool set: ${unknown.join(', ')}`, hint: `Use all, ${TOOLSET_NAMES.join(', ')}, mcp or mcp-<server>.`, exitCode: 64 });
  }
  const loaded = await loadExistingProfile(params);
  const platform = params.platform ?? EVERY_PLATFORM;
  const now = [...profileTools({ config: loaded.config }).toolsets.setsFor({ platform }).sets];
  // Switching one set off "all" leaves every other set on.
  const expanded = now.includes('all') && !params.on ? [...TOOLSET_NAMES, 'mcp'] : now;
  const next = params.on ? [...new Set([...expanded, ...params.names])] : params.names.includes('all') ? [] : expanded.filter((name) => !params.names.includes(name));
  const files = SetupFiles.open({ profile: loaded.profile });
  const keyPath = params.platform === undefined ? ['toolsets'] : ['platform_toolsets', params.platform];
  files.set({ keyPath, value: next });
  // Nothing is written that would not load.
  files.candidate({ env: params.io.env, schema: await appConfigSchema() });
  files.save();
  println({ stream: params.io.stdout, text: `${keyPath.join('.')}: [${next.join(', ')}] in ${loaded.profile.configPath}` });
  println({ stream: params.io.stdout, text: 'A running gateway takes it with `hermes gateway reload` (new turns; MCP servers\' tools from the next conversation).' });
  return 0;
}
