import { directOnlyNames } from '../code/callable.js';
import { codeRuntime } from '../code/runtime.js';
import type { BuiltinSwitch, ToolDefinition } from '../tool.js';
import { clarifyTool } from './clarify.js';
import { cronjobTool } from './cronjob.js';
import { executeCodeTool } from './execute-code.js';
import { delegateTaskTool } from './delegate-task.js';
import { memoryTool } from './memory.js';
import { patchTool } from './patch.js';
import { readFileTool } from './read-file.js';
import { searchFilesTool } from './search-files.js';
import { sendMessageTool } from './send-message.js';
import { sessionSearchTool } from './session-search.js';
import { skillManageTool } from './skill-manage.js';
import { skillViewTool } from './skill-view.js';
import { skillsListTool } from './skills-list.js';
import { terminalTool } from './terminal.js';
import { webExtractTool } from './web-extract.js';
import { webSearchTool } from './web-search.js';
import { visionAnalyzeTool } from './vision-analyze.js';
import { writeFileTool } from './write-file.js';

/**
 * Every built-in tool but execute_code (made per call of builtinTools, it lists the others), in the order the model is
 * offered them. A tool's policy is on its definition (see ToolDefinition); adding a tool is its file and one line here.
 */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
  readFileTool,
  writeFileTool,
  patchTool,
  searchFilesTool,
  terminalTool,
  sessionSearchTool,
  webSearchTool,
  webExtractTool,
  visionAnalyzeTool,
  sendMessageTool,
  delegateTaskTool,
  clarifyTool,
  memoryTool,
  skillsListTool,
  skillViewTool,
  skillManageTool,
  cronjobTool,
];

/**
 * The tools every agent gets: BUILTIN_TOOLS, those with `offeredWith` only when that switch is on (`memory` when it is
 * on; skills_list, skill_view and skill_manage when the profile's skills are, the gateway filling `toolContext.skills`;
 * `cronjob` when the scheduler runs, the gateway filling `toolContext.cron`; `web_search` when a search service is
 * configured, it and web_extract using `toolContext.web`; `vision_analyze` when a model that sees is configured,
 * using `toolContext.vision`); send_message, delegate_task and clarify work
 * where the gateway fills `toolContext.messaging` / `.delegate` / `.clarify`. `execute_code` comes last, its description
 * listing the tools before it that a script may call (Python when python3 exists, probed once per process, else JavaScript).
 */
export function builtinTools(params: Partial<Record<BuiltinSwitch, boolean>> = {}): ToolDefinition[] {
  const tools = BUILTIN_TOOLS.filter((tool) => tool.offeredWith === undefined || params[tool.offeredWith] === true);
  // A script is told memory is for direct calls only even where memory is off (as delegate_task and the others).
  return [...tools, executeCodeTool({ runtime: codeRuntime(), tools, refused: directOnlyNames({ tools: BUILTIN_TOOLS }) })];
}
