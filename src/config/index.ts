/** Configuration: config.yaml schema, ${ENV} interpolation, the profile's .env, effective-config output. */
export { loadConfig, type LoadedConfig, type ConfigSource } from './load.js';
export { buildConfigSchema, type ConfigSchema, type GatewayConfig, type ParsedConfig, type LogLevel, type PlatformName } from './schema.js';
export { validateConfig, type ConfigWarning, type ValidatedConfig } from './validate.js';
export { interpolateTree } from './interpolate.js';
export { readProfileEnv, mergeEnv, type ProfileEnv } from './profile-env.js';
export { readConfigFile, parseConfigText, type RawConfigFile } from './yaml-file.js';
export { renderEffectiveConfig } from './show.js';
export { collectSecrets } from './secrets.js';
export { ConfigError, CONFIG_EXIT_CODE, type ConfigProblem } from './errors.js';
export { looksSecretKey, formatKeyPath } from './secret-keys.js';
export { parseDuration, parseSize, formatDuration, formatSize } from '../util/units.js';
