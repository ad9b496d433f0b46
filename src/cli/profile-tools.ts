import { ModelContext } from '../agent/tokens/model-context.js';
import type { AppConfig } from '../app/config-schema.js';
import { systemClock } from '../core/clock.js';
import { anyMemoryEnabled, memorySettingsFrom } from '../memory/settings.js';
import { builtinTools } from '../tools/builtin/index.js';
import { ToolRegistry } from '../tools/registry.js';
import { ToolsetPolicy } from '../tools/toolsets.js';
import { visionToolOffered } from '../media/vision.js';

/** The tools a gateway of a config would offer, as a command sees them without running one. */
export interface ProfileTools {
  /** The model's context length as known without asking the endpoint (it decides the lean default). */
  readonly context: ModelContext;
  /** The config's tool sets (`toolsets`, `platform_toolsets`). */
  readonly toolsets: ToolsetPolicy;
  /** The built-in tools `gateway run` registers for the config (cronjob too; a host program's own are not known here). */
  readonly builtin: ToolRegistry;
}

/** What `hermes tools` and `hermes prompt show` read of a profile's tools. */
export function profileTools(params: { config: AppConfig }): ProfileTools {
  const { config } = params;
  const context = new ModelContext({ model: config.model, clock: systemClock });
  return {
    context,
    toolsets: new ToolsetPolicy({ toolsets: config.toolsets, platforms: config.platform_toolsets, contextTokens: () => context.current().tokens }),
    builtin: new ToolRegistry({ tools: builtinTools({ memory: anyMemoryEnabled({ settings: memorySettingsFrom({ config }) }), skills: true, cron: true, web_search: config.web.search_backend !== undefined, vision: visionToolOffered({ config }) }) }),
  };
}
