import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../../../src/log/redact.js';

describe('Redactor', () => {
  const redactor = new Redactor({ secrets: ['sk-canary-123', 'abc', 'pa"ss\\word', 'sk-canary-123-long'] });

  test('scrub replaces every occurrence, longest secret first, ignoring very short ones', () => {
    assert.equal(redactor.scrub('a sk-canary-123 b sk-canary-123'), 'a *** b ***');
    assert.equal(redactor.scrub('x sk-canary-123-long y'), 'x *** y');
    assert.equal(redactor.scrub('abc stays'), 'abc stays');
    assert.equal(redactor.scrub('nothing here'), 'nothing here');
  });

  test('contains also sees JSON-escaped secrets', () => {
    assert.ok(redactor.contains(JSON.stringify({ a: 'pa"ss\\word' })));
    assert.equal(redactor.scrub(JSON.stringify('pa"ss\\word')), '"***"');
    assert.ok(!redactor.contains('clean'));
  });

  test('scrubValue deep-copies objects and arrays without mutating the input', () => {
    const input = { a: 'sk-canary-123', nested: { list: ['x', 'key=sk-canary-123'], n: 5, ok: true, none: null } };
    const out = redactor.scrubValue(input);
    assert.deepEqual(out, { a: '***', nested: { list: ['x', 'key=***'], n: 5, ok: true, none: null } });
    assert.equal(input.a, 'sk-canary-123');
    assert.equal(input.nested.list[1], 'key=sk-canary-123');
  });

  test('scrubValue copies errors (message, stack, cause, own fields) keeping their class', () => {
    class ApiError extends Error {
      readonly body = 'token sk-canary-123';
    }
    const error = new ApiError('bad key sk-canary-123', { cause: new Error('inner sk-canary-123') });
    const out = redactor.scrubValue(error);
    assert.ok(out instanceof ApiError);
    assert.equal(out.message, 'bad key ***');
    assert.ok(!(out.stack ?? '').includes('sk-canary-123'));
    assert.match(out.stack ?? '', /bad key \*\*\*/);
    assert.equal(out.body, 'token ***');
    assert.ok(out.cause instanceof Error);
    assert.equal(out.cause.message, 'inner ***');
    assert.equal(error.message, 'bad key sk-canary-123', 'original untouched');
    assert.equal(Object.keys(out).includes('message'), false, 'message stays non-enumerable');
  });

  test('scrubValue survives cycles', () => {
    const node: { name: string; self?: unknown; list: unknown[] } = { name: 'sk-canary-123', list: [] };
    node.self = node;
    node.list.push(node);
    const out = redactor.scrubValue(node) as typeof node;
    assert.equal(out.name, '***');
    assert.equal(out.self, out);
    assert.equal(out.list[0], out);
    assert.notEqual(out, node);
  });

  test('scrubValue leaves non-plain objects alone and handles primitives', () => {
    const date = new Date(0);
    assert.equal(redactor.scrubValue(date), date);
    assert.equal(redactor.scrubValue(42), 42);
    assert.equal(redactor.scrubValue(undefined), undefined);
    assert.equal(new Redactor({ secrets: [] }).scrub('sk-canary-123'), 'sk-canary-123');
  });
});

test('Redactor.secrets lists the usable secrets once', () => {
  assert.deepEqual(new Redactor({ secrets: ['abcd', 'ab', 'abcd', 'efgh'] }).secrets, ['abcd', 'efgh']);
});
