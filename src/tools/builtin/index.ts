import { codeRuntime } from '../code/runtime.js';
import type { ToolDefinition } from '../tool.js';
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
import { writeFileTool } from './write-file.js';

/**
 * The tools every agent gets: read_file, write_file, patch, search_files, terminal, session_search, send_message,
 * delegate_task and clarify (they work where the gateway fills `toolContext.messaging` / `.delegate` / `.clarify`); `memory` when it
 * is on; skills_list, skill_view and skill_manage when the profile's skills are (the gateway fills `toolContext.skills`);
 * `cronjob` when the scheduler runs (the gateway fills `toolContext.cron`); `execute_code` last, its description listing
 * the tools before it that a script may call (Python when python3 exists, probed once per process, else JavaScript).
 */
export function builtinTools(params: { memory?: boolean; skills?: boolean; cron?: boolean } = {}): ToolDefinition[] {
  const tools: ToolDefinition[] = [
    readFileTool,
    writeFileTool,
    patchTool,
    searchFilesTool,
    terminalTool,
    sessionSearchTool,
    sendMessageTool,
    delegateTaskTool,
    clarifyTool,
    ...(params.memory === true ? [memoryTool] : []),
    ...(params.skills === true ? [skillsListTool, skillViewTool, skillManageTool] : []),
    ...(params.cron === true ? [cronjobTool] : []),
  ];
  return [...tools, executeCodeTool({ runtime: codeRuntime(), tools })];
}
