import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clarifyTool } from '../../../src/tools/builtin/clarify.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ClarifyAnswer, ClarifyCapability } from '../../../src/tools/capabilities.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { bareToolContext } from './support.js';

/** A clarify capability that records what it was asked and gives `answer`. */
function recording(answer: ClarifyAnswer): { clarify: ClarifyCapability; asked: { question: string; choices?: readonly string[] }[] } {
  const asked: { question: string; choices?: readonly string[] }[] = [];
  return {
    asked,
    clarify: {
      ask: async ({ question, choices }) => {
        asked.push({ question, ...(choices ? { choices } : {}) });
        return answer;
      },
    },
  };
}

async function call(params: { args: object; ctx: ToolContext }): Promise<{ content: string; isError: boolean }> {
  const registry = new ToolRegistry({ tools: [clarifyTool] });
  return registry.execute({ call: { id: 'c1', name: 'clarify', arguments: JSON.stringify(params.args) }, ctx: params.ctx });
}

test("the clarify tool has Hermes's shape (question, choices? of at most 4) and never runs with other tools", () => {
  const [schema] = new ToolRegistry({ tools: [clarifyTool] }).toOpenAITools();
  assert.equal(schema?.function.name, 'clarify');
  const parameters = schema?.function.parameters as { properties: Record<string, { maxItems?: number }>; required: string[] };
  assert.deepEqual(Object.keys(parameters.properties), ['question', 'choices']);
  assert.equal(parameters.properties['choices']?.maxItems, 4);
  assert.deepEqual(parameters.required, ['question']);
  assert.equal(clarifyTool.parallel, 'never');
});

test('without a clarify capability (a scheduled job, a child) the call fails with "not available here"; nothing is asked', async () => {
  const result = await call({ args: { question: 'Which?' }, ctx: bareToolContext() });
  assert.equal(result.isError, true);
  assert.match(result.content, /clarify is not available here/);
});

test('the answer is the result; choices are trimmed and deduplicated; five choices are refused before anything is asked', async () => {
  const { clarify, asked } = recording({ answered: true, answer: 'Blue', via: 'choice' });
  const ctx = { ...bareToolContext(), clarify };
  assert.deepEqual(await call({ args: { question: ' Colour? ', choices: ['Red', ' Blue', 'Red'] }, ctx }), { content: 'Blue', isError: false });
  assert.deepEqual(asked, [{ question: 'Colour?', choices: ['Red', 'Blue'] }]);
  const five = await call({ args: { question: 'Colour?', choices: ['a', 'b', 'c', 'd', 'e'] }, ctx });
  assert.deepEqual(five, { content: 'Error: invalid arguments for clarify: choices: at most 4 choices; offer the likeliest ones (the owner can always answer in their own words).', isError: true });
  const empty = await call({ args: { question: '   ' }, ctx });
  assert.deepEqual(empty, { content: 'Error: invalid arguments for clarify: question: the question is empty; ask something the owner can answer.', isError: true });
  assert.equal(asked.length, 1);
  const open = await call({ args: { question: 'Name?' }, ctx });
  assert.equal(open.content, 'Blue');
  assert.deepEqual(asked[1], { question: 'Name?' });
});

test('no answer: the result says so, why, and that the model should go on without it', async () => {
  const { clarify } = recording({ answered: false, reason: 'no answer from the owner within 5 min' });
  const result = await call({ args: { question: 'Which?', choices: ['a', 'b'] }, ctx: { ...bareToolContext(), clarify } });
  assert.deepEqual(result, { content: 'No answer: no answer from the owner within 5 min. Go on without it (make the most reasonable choice and say what you assumed), or ask again later.', isError: false });
});
