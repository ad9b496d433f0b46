import type { ToolDefinition } from '../tool.js';
import { memoryTool } from './memory.js';
import { patchTool } from './patch.js';
import { readFileTool } from './read-file.js';
import { searchFilesTool } from './search-files.js';
import { sessionSearchTool } from './session-search.js';
import { terminalTool } from './terminal.js';
import { writeFileTool } from './write-file.js';

/** The tools every agent gets: read_file, write_file, patch, search_files, terminal, session_search; and `memory` when it is on. */
export function builtinTools(params: { memory?: boolean } = {}): ToolDefinition[] {
  return [readFileTool, writeFileTool, patchTool, searchFilesTool, terminalTool, sessionSearchTool, ...(params.memory === true ? [memoryTool] : [])];
}
