import type { PromptLayer } from './types.js';

/** `agent.tool_use_enforcement`: auto (by model name), always, never, or the model-name substrings that get it. */
export type ToolUseEnforcement = 'auto' | boolean | readonly string[];

/**
 * Model-name substrings whose families tend to announce an action instead of calling the tool (the list Hermes
 * Agent uses for `auto`).
 */
export const enforcementModels: readonly string[] = ['gpt', 'codex', 'gemini', 'gemma', 'grok', 'glm', 'qwen', 'deepseek'];

/** Short, general guidance every model gets. */
const guidance = [
  '# Using your tools',
  'Use your tools when they give a better answer than guessing: look before you change something, and check the result after.',
  'When a tool fails, read the error and adjust instead of repeating the same call. Never invent a tool result.',
].join('\n');

/** The extra block for model families that need it. */
const enforcement = [
  "# Act, don't just say you will",
  'When a request needs a tool, call it in this reply. Never end a reply with a promise such as "I will check that" without the call that does it.',
  'Each reply either makes progress with tool calls or gives the user a result (or asks the one question you need answered).',
].join('\n');

/** Whether `model` gets the enforcement block under `setting` (substrings match case-insensitively). */
export function wantsEnforcement(params: { model: string; setting: ToolUseEnforcement }): boolean {
  const { setting } = params;
  if (typeof setting === 'boolean') return setting;
  const substrings = setting === 'auto' ? enforcementModels : setting;
  const model = params.model.toLowerCase();
  return substrings.some((s) => s.trim() !== '' && model.includes(s.trim().toLowerCase()));
}

/** The tool-use guidance layer, with the "act, don't just say you will" block when the model needs it. */
export function toolGuidanceLayer(params: { model: string; setting: ToolUseEnforcement }): PromptLayer {
  const text = wantsEnforcement(params) ? `${guidance}\n\n${enforcement}` : guidance;
  return { name: 'tool_guidance', text };
}
