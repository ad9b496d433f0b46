import type { GatewayConfig } from './schema.js';
import type { ConfigWarning } from './validate.js';

/** Warnings for keys that still load but no longer do anything (agent.history_max_chars, replaced by compression). */
export function deprecatedKeyWarnings(params: { config: GatewayConfig; file: string }): ConfigWarning[] {
  if (params.config.agent.history_max_chars === undefined) return [];
  return [
    {
      file: params.file,
      keyPath: 'agent.history_max_chars',
      message:
        `${params.file}: agent.history_max_chars: deprecated and ignored; long conversations are compressed now ` +
        '(compression.threshold, compression.tail_ratio, compression.summary_max_tokens); remove the key',
    },
  ];
}
