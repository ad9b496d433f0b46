import type { GatewayConfig } from '../../config/schema.js';
import { profileTimeZone } from '../../util/schedule/time-zone.js';
import type { Profile } from '../../home/profile.js';
import type { SessionPrompt } from '../../store/types.js';
import { contextFilesLayer } from './context-files.js';
import { identityLayer } from './identity.js';
import { memoryLayer } from './memory.js';
import { runtimeLayer } from './runtime.js';
import type { FormattingRules } from './platform-rules.js';
import { skillsLayer } from './skills.js';
import { toolGuidanceLayer } from './tool-guidance.js';
import type { PromptLayer, PromptLogger } from './types.js';
import { unavailableMcpNote, type McpUnavailableServer } from '../../mcp/snapshot.js';

/** What a session's prompt is built from. */
export interface BuildPromptParams {
  /** The profile (its SOUL.md, memories/, name). */
  readonly profile: Profile;
  /** The config the session starts under. */
  readonly config: GatewayConfig;
  /** The platform the session is on (an adapter name: telegram, slack, sms, ...). */
  readonly platform: string;
  /** When the session started (ms since the epoch). */
  readonly startedAt: number;
  /** Redacts the profile's secrets; applied to the whole text before it is stored or sent. */
  readonly scrub: (text: string) => string;
  /** Told about context files left out (unreadable) or blocked (threat scan). */
  readonly logger: PromptLogger;
  /** The names of the tools the agent is offered (the guidance layer covers memory, session_search and skill_manage only when present; the skills index needs skill_view). */
  readonly toolNames: readonly string[];
  /** How replies are written on each platform (adapters/index.ts `formattingRules`: the descriptors' and the terminal's). */
  readonly formatting: FormattingRules;
  /** The profile's MCP servers the session goes without (not connected when it started): named so the agent can say so. */
  readonly mcpUnavailable?: readonly McpUnavailableServer[];
}

/** The layers in prompt order, most stable first (so a provider's prefix cache keeps hitting). */
export function promptLayers(params: BuildPromptParams): PromptLayer[] {
  const { profile, config } = params;
  const extra = config.agent.system_prompt?.trim() ?? '';
  return [
    identityLayer({ profile, logger: params.logger }),
    toolGuidanceLayer({ model: config.model.name, setting: config.agent.tool_use_enforcement, toolNames: params.toolNames }),
    { name: 'system_prompt', text: extra },
    memoryLayer({ profile, config }),
    skillsLayer({ dir: profile.skillsDir, platform: params.platform, maxChars: config.skills.index_max_chars, offered: params.toolNames.includes('skill_view'), logger: params.logger }),
    contextFilesLayer({ workspace: config.tools.workspace, enabled: config.agent.context_files, maxChars: config.agent.context_file_max_chars, logger: params.logger }),
    { name: 'mcp_servers', text: unavailableMcpNote({ unavailable: params.mcpUnavailable ?? [] }) },
    runtimeLayer({ profileName: profile.name, workspace: config.tools.workspace, platform: params.platform, startedAt: params.startedAt, timeZone: profileTimeZone({ config }), formatting: params.formatting }),
  ];
}

/**
 * Builds a session's system prompt: the layers' texts (empty ones left out) separated by blank lines, scrubbed of
 * the profile's secrets, with each layer's size in characters (empty layers listed with 0).
 */
export function buildSessionPrompt(params: BuildPromptParams): SessionPrompt {
  const layers = promptLayers(params).map((layer) => ({ name: layer.name, text: params.scrub(layer.text) }));
  // Each layer is scrubbed on its own; the blank line between two layers is no part of any secret (nor of a base64 or
  // hex run the scrubber decodes), so the joined text needs no second pass.
  const text = layers.map((layer) => layer.text).filter((t) => t !== '').join('\n\n');
  return { text, layers: layers.map((layer) => ({ name: layer.name, chars: layer.text.length })) };
}
