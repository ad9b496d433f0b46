import { renderEffectiveConfig } from '../config/show.js';
import { appConfigSchema } from '../app/config-schema.js';
import { loadProfile, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';

/** `hermes config validate`: loads the config and says it is fine. Errors and warnings are printed by loading. */
export async function configValidate(params: { options: GlobalOptions; io: CliIO }): Promise<number> {
  const loaded = await loadProfile(params);
  const enabled = Object.entries(loaded.config.platforms)
    .filter(([, block]) => block.enabled)
    .map(([name]) => name);
  println({
    stream: params.io.stdout,
    text: `${loaded.profile.configPath}: valid (profile "${loaded.profile.name}", platforms enabled: ${enabled.join(', ') || 'none'})`,
  });
  return 0;
}

/** `hermes config show`: the effective config with defaults filled in and secrets shown as ***. */
export async function configShow(params: { options: GlobalOptions; io: CliIO }): Promise<number> {
  const loaded = await loadProfile(params);
  params.io.stdout.write(renderEffectiveConfig({ config: loaded.config, secrets: loaded.redactor.secrets, schema: await appConfigSchema() }));
  return 0;
}
