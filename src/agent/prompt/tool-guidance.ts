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
  'Use tools rather than guess: look before you change something, check the result after. When a call fails, read ' +
    'the error and adjust instead of repeating it. Never invent a tool result.',
].join('\n');

/** The extra block for model families that need it. */
const enforcement = [
  "# Act, don't just say you will",
  'When a request needs a tool, call it in this reply; never end a reply with a promise such as "I will check that".',
].join('\n');

/** Whether `model` gets the enforcement block under `setting` (substrings match case-insensitively). */
export function wantsEnforcement(params: { model: string; setting: ToolUseEnforcement }): boolean {
  const { setting } = params;
  if (typeof setting === 'boolean') return setting;
  const substrings = setting === 'auto' ? enforcementModels : setting;
  const model = params.model.toLowerCase();
  return substrings.some((s) => s.trim() !== '' && model.includes(s.trim().toLowerCase()));
}

/** When to use the `memory` tool (only sent when the agent has it; how to call it is in its description). */
const memoryGuidance = [
  '# Memory',
  'Save durable facts with `memory` at once, without being asked, when the user corrects you or tells you something lasting ' +
    '(preferences and corrections, their environment, conventions). Not task progress, not what this conversation already ' +
    'holds, not what is easy to look up again.',
].join('\n');

/** When to use the `session_search` tool (only sent when the agent has it). */
const sessionSearchGuidance = [
  '# Earlier conversations',
  'When the user refers to something from before ("as we discussed", "last week", what was decided or fixed), search ' +
    'with `session_search` instead of guessing or asking again.',
].join('\n');

/** When to use the `skill_manage` tool (only sent when the agent has it). */
const skillManageGuidance = [
  '# Saving skills',
  "After a task that took trial and error or the user's correction, save what worked as a skill (`skill_manage` create); " +
    'fix a skill that proved wrong at once (patch).',
].join('\n');

/**
 * The tool-use guidance layer: general guidance, the "act, don't just say you will" block when the model needs it,
 * and guidance for the `memory`, `session_search` and `skill_manage` tools when `toolNames` (the tools the agent is offered) has them.
 */
export function toolGuidanceLayer(params: { model: string; setting: ToolUseEnforcement; toolNames: readonly string[] }): PromptLayer {
  const has = (name: string): boolean => params.toolNames.includes(name);
  const blocks = [
    guidance,
    ...(wantsEnforcement(params) ? [enforcement] : []),
    ...(has('memory') ? [memoryGuidance] : []),
    ...(has('session_search') ? [sessionSearchGuidance] : []),
    ...(has('skill_manage') ? [skillManageGuidance] : []),
  ];
  return { name: 'tool_guidance', text: blocks.join('\n\n') };
}
