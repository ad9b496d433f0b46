import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from '../core/errors.js';

/** Symlink hops followed before a path is treated as a loop. */
const MAX_LINK_HOPS = 40;

/** A file tool was asked to touch a path outside the workspace while confinement is on. */
export class WorkspaceEscapeError extends ToolError {
  override readonly name = 'WorkspaceEscapeError';
  /** The absolute path that was requested. */
  readonly requested: string;
  /** The workspace the path had to stay in. */
  readonly workspace: string;

  constructor(params: { requested: string; workspace: string; resolvedTo?: string }) {
    const shown =
      params.resolvedTo && params.resolvedTo !== params.requested
        ? `${params.requested} (which resolves to ${params.resolvedTo})`
        : params.requested;
    super(
      `Path ${shown} is outside the workspace ${params.workspace}; tools may only touch files inside it ` +
        '(set tools.confine_to_workspace: false to allow).',
    );
    this.requested = params.requested;
    this.workspace = params.workspace;
  }
}

/** True when `child` is `root` itself or lies below it (both absolute, normalized). */
export function isWithin(params: { root: string; child: string }): boolean {
  const rel = path.relative(params.root, params.child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** True when two absolute paths are the same or one is an ancestor directory of the other. */
export function pathsOverlap(params: { a: string; b: string }): boolean {
  return isWithin({ root: params.a, child: params.b }) || isWithin({ root: params.b, child: params.a });
}

/**
 * The real location of an absolute path that may not exist yet: symlinks (also dangling ones)
 * are followed for every existing component, missing components are appended as they are.
 */
export function canonicalPath(params: { path: string }): string {
  return canonicalize(path.resolve(params.path), 0);
}

function canonicalize(abs: string, hops: number): string {
  if (hops > MAX_LINK_HOPS) throw new ToolError(`Too many levels of symbolic links while resolving ${abs}.`);
  try {
    return fs.realpathSync(abs);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const link = readLinkIfAny(abs);
  if (link !== undefined) return canonicalize(path.resolve(path.dirname(abs), link), hops + 1);
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  return path.join(canonicalize(parent, hops), path.basename(abs));
}

function readLinkIfAny(abs: string): string | undefined {
  try {
    return fs.lstatSync(abs).isSymbolicLink() ? fs.readlinkSync(abs) : undefined;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Resolves a tool's path argument against the workspace. With `confine`, throws WorkspaceEscapeError
 * when the path (after following symlinks of its nearest existing ancestors) leaves the workspace.
 */
export function resolveInWorkspace(params: { workspace: string; path: string; confine: boolean }): string {
  const requested = path.resolve(params.workspace, params.path);
  if (!params.confine) return requested;
  const root = canonicalPath({ path: params.workspace });
  const real = canonicalPath({ path: requested });
  if (!isWithin({ root, child: real })) {
    throw new WorkspaceEscapeError({ requested, workspace: params.workspace, resolvedTo: real });
  }
  return requested;
}
