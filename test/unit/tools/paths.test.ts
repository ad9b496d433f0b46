import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pathsOverlap, resolveInWorkspace, WorkspaceEscapeError } from '../../../src/tools/paths.js';
import { makeSandbox, type Sandbox } from './support.js';

describe('resolveInWorkspace', () => {
  let box: Sandbox;
  beforeEach(() => {
    box = makeSandbox();
  });
  afterEach(() => box.cleanup());

  test('relative and absolute paths inside the workspace resolve, also ones that do not exist yet', () => {
    const ws = box.workspace;
    assert.equal(resolveInWorkspace({ workspace: ws, path: 'a/b.txt', confine: true }), path.join(ws, 'a/b.txt'));
    assert.equal(resolveInWorkspace({ workspace: ws, path: path.join(ws, 'x'), confine: true }), path.join(ws, 'x'));
    assert.equal(resolveInWorkspace({ workspace: ws, path: 'sub/../c', confine: true }), path.join(ws, 'c'));
    assert.equal(resolveInWorkspace({ workspace: ws, path: '.', confine: true }), ws);
  });

  test('../ and absolute paths outside are refused with the documented message', () => {
    const ws = box.workspace;
    const outsideFile = path.join(path.dirname(ws), 'outside', 'secret');
    assert.throws(
      () => resolveInWorkspace({ workspace: ws, path: '../outside/secret', confine: true }),
      (error: unknown) => {
        assert.ok(error instanceof WorkspaceEscapeError);
        assert.equal(
          error.message,
          `Path ${outsideFile} is outside the workspace ${ws}; tools may only touch files inside it ` +
            '(set tools.confine_to_workspace: false to allow).',
        );
        return true;
      },
    );
    assert.throws(() => resolveInWorkspace({ workspace: ws, path: '/etc/passwd', confine: true }), WorkspaceEscapeError);
    assert.throws(() => resolveInWorkspace({ workspace: ws, path: `${ws}-sibling/x`, confine: true }), WorkspaceEscapeError);
  });

  test('symlinks that lead out (to a directory, a file, or dangling) are refused', () => {
    const ws = box.workspace;
    fs.writeFileSync(path.join(box.outside, 'secret'), 'x');
    fs.symlinkSync(box.outside, path.join(ws, 'dirlink'));
    fs.symlinkSync(path.join(box.outside, 'secret'), path.join(ws, 'filelink'));
    fs.symlinkSync(path.join(box.outside, 'not-yet'), path.join(ws, 'dangling'));
    for (const p of ['dirlink/secret', 'dirlink/new/file.txt', 'filelink', 'dangling']) {
      assert.throws(() => resolveInWorkspace({ workspace: ws, path: p, confine: true }), WorkspaceEscapeError, p);
    }
    fs.mkdirSync(path.join(ws, 'real'));
    fs.symlinkSync(path.join(ws, 'real'), path.join(ws, 'innerlink'));
    assert.equal(resolveInWorkspace({ workspace: ws, path: 'innerlink/f', confine: true }), path.join(ws, 'innerlink/f'));
  });

  test('with confinement off any path resolves', () => {
    assert.equal(resolveInWorkspace({ workspace: box.workspace, path: '/etc/passwd', confine: false }), '/etc/passwd');
  });

  test('pathsOverlap: same path or ancestor, but not siblings with a common prefix', () => {
    assert.equal(pathsOverlap({ a: '/w/a', b: '/w/a' }), true);
    assert.equal(pathsOverlap({ a: '/w', b: '/w/a/b' }), true);
    assert.equal(pathsOverlap({ a: '/w/a/b', b: '/w' }), true);
    assert.equal(pathsOverlap({ a: '/w/a', b: '/w/ab' }), false);
    assert.equal(pathsOverlap({ a: '/w/a', b: '/w/b' }), false);
  });
});
