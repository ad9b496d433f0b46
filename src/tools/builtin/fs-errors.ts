import fs from 'node:fs';
import { ToolError } from '../../core/errors.js';

/** Stats a path, turning "not found" and "permission denied" into messages the model can act on. */
export async function statOrExplain(params: { abs: string; shown: string }): Promise<fs.Stats> {
  try {
    return await fs.promises.stat(params.abs);
  } catch (error) {
    throw explainFsError({ error, shown: params.shown });
  }
}

/** A ToolError for common filesystem failures; other errors are returned unchanged. */
export function explainFsError(params: { error: unknown; shown: string }): unknown {
  const code = params.error instanceof Error && 'code' in params.error ? params.error.code : undefined;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new ToolError(`${params.shown} does not exist. Check the path, or use search_files to find the file.`);
  }
  if (code === 'EACCES' || code === 'EPERM') return new ToolError(`Permission denied for ${params.shown}.`);
  if (code === 'EISDIR') return new ToolError(`${params.shown} is a directory, not a file.`);
  return params.error;
}
