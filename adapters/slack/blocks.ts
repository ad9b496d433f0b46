import type { OutboundChoice } from '../../src/core/adapter.js';
import { choiceRows } from '../kit/choice-rows.js';

/** The block_id prefix of the actions blocks carrying the gateway's buttons: presses of other buttons are not ours. */
export const choicesBlockPrefix = 'hermes_choices';

/** Slack's limit on a section block's text, and on a button's label. */
const sectionLimit = 3000;
const labelLimit = 75;

/** A Block Kit block, as far as the adapter builds or reads one. */
export type SlackBlock = Readonly<Record<string, unknown>> & { readonly type: string };

/**
 * A message with buttons as Block Kit: the (mrkdwn) text as section blocks, then one actions block per row of
 * buttons, each button carrying the choice id as its action_id and value. The message's `text` stays the fallback.
 */
export function choiceBlocks(params: { mrkdwn: string; choices: readonly OutboundChoice[] }): SlackBlock[] {
  const sections: SlackBlock[] = [];
  for (let at = 0; at < params.mrkdwn.length; at += sectionLimit) {
    sections.push({ type: 'section', text: { type: 'mrkdwn', text: params.mrkdwn.slice(at, at + sectionLimit) } });
  }
  const rows = choiceRows({ choices: params.choices }).map((row, index): SlackBlock => ({
    type: 'actions',
    block_id: `${choicesBlockPrefix}_${index}`,
    elements: row.map((choice) => ({
      type: 'button',
      action_id: choice.id,
      value: choice.id,
      text: { type: 'plain_text', text: choice.label.slice(0, labelLimit), emoji: true },
    })),
  }));
  return [...sections, ...rows];
}

/** A message's blocks without the gateway's buttons (what a retired question keeps). */
export function withoutChoices(params: { blocks: readonly unknown[] }): unknown[] {
  return params.blocks.filter((block) => {
    if (typeof block !== 'object' || block === null) return true;
    const { type, block_id: blockId } = block as { type?: unknown; block_id?: unknown };
    return !(type === 'actions' && typeof blockId === 'string' && blockId.startsWith(choicesBlockPrefix));
  });
}
