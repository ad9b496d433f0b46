import { stringify } from 'yaml';
import { Redactor } from '../log/redact.js';
import { isDurationSchema, isSizeSchema } from '../util/config-fields.js';
import type { ConfigSchema } from './schema.js';
import { objectShape, unwrapSchema } from './schema-walk.js';
import { looksSecretKey } from './secret-keys.js';
import { formatDuration, formatSize } from '../util/units.js';
import { z } from 'zod';

/** What replaces a secret in output. */
const MASK = '***';

/**
 * The effective config as YAML that parses back to the same config: durations as "30s", sizes as "10m",
 * every secret-looking key's value and every occurrence of a known secret replaced by "***".
 */
export function renderEffectiveConfig(params: { config: unknown; secrets: readonly string[]; schema: ConfigSchema }): string {
  const redactor = new Redactor({ secrets: params.secrets });
  const tree = present(params.config, params.schema, false, redactor);
  return `# Effective configuration: defaults filled in, secrets shown as ${MASK}.\n${stringify(tree)}`;
}

/** Copies a config subtree into its printable form. */
function present(node: unknown, schema: z.core.$ZodType | undefined, secret: boolean, redactor: Redactor): unknown {
  if (Array.isArray(node)) return node.map((item: unknown) => present(item, arrayElement({ schema }), secret, redactor));
  if (node !== null && typeof node === 'object') {
    const shape = schema === undefined ? undefined : objectShape({ schema });
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = present(value, shape?.[key], secret || looksSecretKey({ key }), redactor);
    }
    return out;
  }
  if (secret && node !== undefined && node !== '') return MASK;
  if (typeof node === 'string') return redactor.scrub(node);
  if (typeof node === 'number' && schema !== undefined) {
    if (isDurationSchema({ schema })) return formatDuration({ ms: node });
    if (isSizeSchema({ schema })) return formatSize({ bytes: node });
  }
  return node;
}

/** The element schema of an array schema (through wrappers), so array items print like other values. */
function arrayElement(params: { schema: z.core.$ZodType | undefined }): z.core.$ZodType | undefined {
  if (params.schema === undefined) return undefined;
  const inner = unwrapSchema({ schema: params.schema });
  return inner instanceof z.ZodArray ? inner.element : undefined;
}
