import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toMrkdwn } from '../../../adapters/slack/outbound.js';

test('broadcast mentions in the text (a tool line, an approval question, the answer) are shown, never sent as Slack syntax', async () => {
  for (const markdown of ['⚙ terminal: echo <!channel> done', '`echo <!here>`', 'ping <!everyone>', 'team <!subteam^S0123>']) {
    const mrkdwn = await toMrkdwn({ markdown });
    assert.ok(!/<!(?:channel|here|everyone|subteam)/.test(mrkdwn), `${markdown} → ${mrkdwn}`);
    assert.match(mrkdwn, /&lt;\u2060!/);
  }
  // A user mention stays one (as on Discord), and ordinary text is unchanged.
  assert.equal(await toMrkdwn({ markdown: 'thanks <@U123>' }), 'thanks <@U123>');
  assert.equal(await toMrkdwn({ markdown: 'a < b && c' }), 'a &lt; b &amp;&amp; c');
});
