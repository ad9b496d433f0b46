import { DiscordApiError } from './router.js';
import type { Json } from './types.js';

/** Discord's limits on message components (Invalid Form Body otherwise). */
const MAX_ROWS = 5;
const MAX_BUTTONS_PER_ROW = 5;
const MAX_LABEL = 80;
const MAX_CUSTOM_ID = 100;

/** A button as a user sees and presses it. */
export interface ShownButton {
  readonly label: string;
  readonly customId: string;
  readonly style: number;
}

function invalid(params: { path: string; code: string; text: string }): DiscordApiError {
  return new DiscordApiError({ status: 400, code: 50035, message: 'Invalid Form Body', errors: { [params.path]: { _errors: [{ code: params.code, message: params.text }] } } });
}

/**
 * Checks a message's `components` as Discord does for action rows of buttons: at most 5 rows (type 1) of 1-5
 * buttons (type 2) with a style 1-5, a label of at most 80 characters and a custom_id of 1-100 characters (link
 * buttons, style 5, have a url instead), custom_ids unique in the message.
 */
export function checkComponents(params: { components: unknown }): Json[] {
  const { components } = params;
  if (!Array.isArray(components)) throw invalid({ path: 'components', code: 'LIST_TYPE_CONVERT', text: 'Only iterables may be used in a ListType' });
  if (components.length > MAX_ROWS) throw invalid({ path: 'components', code: 'BASE_TYPE_MAX_LENGTH', text: `Must be ${MAX_ROWS} or fewer in length.` });
  const ids = new Set<string>();
  components.forEach((row: unknown, r) => {
    const fields = (typeof row === 'object' && row !== null ? row : {}) as Json;
    if (fields['type'] !== 1) throw invalid({ path: `components.${r}.type`, code: 'BASE_TYPE_CHOICES', text: 'Value must be one of (1,).' });
    const inner = fields['components'];
    if (!Array.isArray(inner) || inner.length === 0 || inner.length > MAX_BUTTONS_PER_ROW) {
      throw invalid({ path: `components.${r}.components`, code: 'BASE_TYPE_BAD_LENGTH', text: `Must be between 1 and ${MAX_BUTTONS_PER_ROW} in length.` });
    }
    inner.forEach((button: unknown, b) => {
      const at = `components.${r}.components.${b}`;
      const f = (typeof button === 'object' && button !== null ? button : {}) as Json;
      if (f['type'] !== 2) return;
      const style = Number(f['style']);
      if (!Number.isInteger(style) || style < 1 || style > 5) throw invalid({ path: `${at}.style`, code: 'BASE_TYPE_CHOICES', text: 'Value must be one of (1, 2, 3, 4, 5).' });
      const label = f['label'];
      if (label !== undefined && (typeof label !== 'string' || label.length > MAX_LABEL)) throw invalid({ path: `${at}.label`, code: 'BASE_TYPE_MAX_LENGTH', text: `Must be ${MAX_LABEL} or fewer in length.` });
      if (style === 5) return;
      const id = f['custom_id'];
      if (typeof id !== 'string' || id.length === 0 || id.length > MAX_CUSTOM_ID) {
        throw invalid({ path: `${at}.custom_id`, code: 'BASE_TYPE_BAD_LENGTH', text: `Must be between 1 and ${MAX_CUSTOM_ID} in length.` });
      }
      if (ids.has(id)) throw invalid({ path: `${at}.custom_id`, code: 'COMPONENT_CUSTOM_ID_DUPLICATED', text: 'Component custom id cannot be duplicated' });
      ids.add(id);
    });
  });
  return components as Json[];
}

/** The buttons of a message's components, row by row. */
export function shownButtons(params: { components: unknown }): ShownButton[][] {
  const rows = Array.isArray(params.components) ? params.components : [];
  return rows.map((row: unknown) => {
    const inner = (row as Json)['components'];
    return (Array.isArray(inner) ? inner : []).flatMap((button: unknown) => {
      const f = button as Json;
      if (f['type'] !== 2) return [];
      return [{ label: String(f['label'] ?? ''), customId: String(f['custom_id'] ?? ''), style: Number(f['style']) }];
    });
  });
}
