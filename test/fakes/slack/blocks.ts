import { SlackApiError } from './method-kit.js';

/** Slack's Block Kit limits the fake enforces on buttons (invalid_blocks otherwise). */
const MAX_BLOCKS = 50;
const MAX_ACTIONS_ELEMENTS = 25;
const MAX_BUTTON_TEXT = 75;
const MAX_ACTION_ID = 255;
const MAX_VALUE = 2000;
const MAX_SECTION_TEXT = 3000;

/** A button as a user sees and presses it. */
export interface ShownButton {
  readonly text: string;
  readonly actionId: string;
  readonly value?: string;
  readonly blockId: string;
}

/**
 * Checks `blocks` the way chat.postMessage / chat.update do for the kinds the fake knows (section, actions with
 * buttons, rich_text, context, divider): Slack answers `invalid_blocks` for a bad one; unknown block types pass.
 * action_ids must be unique within the message.
 */
export function checkBlocks(params: { blocks: unknown }): unknown[] {
  const { blocks } = params;
  if (!Array.isArray(blocks) || blocks.length > MAX_BLOCKS) throw new SlackApiError({ code: 'invalid_blocks' });
  const actionIds = new Set<string>();
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string') throw new SlackApiError({ code: 'invalid_blocks' });
    const fields = block as Record<string, unknown>;
    if (fields['type'] === 'section') {
      const text = fields['text'] as { type?: unknown; text?: unknown } | undefined;
      if (typeof text?.text !== 'string' || text.text === '' || text.text.length > MAX_SECTION_TEXT) throw new SlackApiError({ code: 'invalid_blocks' });
    }
    if (fields['type'] !== 'actions') continue;
    const elements = fields['elements'];
    if (!Array.isArray(elements) || elements.length === 0 || elements.length > MAX_ACTIONS_ELEMENTS) throw new SlackApiError({ code: 'invalid_blocks' });
    for (const element of elements) {
      const button = element as { type?: unknown; action_id?: unknown; value?: unknown; text?: { type?: unknown; text?: unknown } };
      if (button.type !== 'button') continue;
      const label = button.text?.text;
      if (button.text?.type !== 'plain_text' || typeof label !== 'string' || label === '' || label.length > MAX_BUTTON_TEXT) throw new SlackApiError({ code: 'invalid_blocks' });
      if (button.action_id !== undefined) {
        if (typeof button.action_id !== 'string' || button.action_id === '' || button.action_id.length > MAX_ACTION_ID || actionIds.has(button.action_id)) throw new SlackApiError({ code: 'invalid_blocks' });
        actionIds.add(button.action_id);
      }
      if (button.value !== undefined && (typeof button.value !== 'string' || button.value.length > MAX_VALUE)) throw new SlackApiError({ code: 'invalid_blocks' });
    }
  }
  return blocks;
}

/** The buttons of a message's blocks, row (actions block) by row. */
export function shownButtons(params: { blocks: readonly unknown[] | undefined }): ShownButton[][] {
  const rows: ShownButton[][] = [];
  for (const block of params.blocks ?? []) {
    const fields = block as { type?: unknown; block_id?: unknown; elements?: unknown };
    if (fields.type !== 'actions' || !Array.isArray(fields.elements)) continue;
    const blockId = typeof fields.block_id === 'string' ? fields.block_id : '';
    rows.push(fields.elements.flatMap((element) => {
      const button = element as { type?: unknown; action_id?: unknown; value?: unknown; text?: { text?: unknown } };
      if (button.type !== 'button') return [];
      return [{
        text: String(button.text?.text ?? ''),
        actionId: typeof button.action_id === 'string' ? button.action_id : '',
        ...(typeof button.value === 'string' ? { value: button.value } : {}),
        blockId,
      }];
    }));
  }
  return rows;
}
