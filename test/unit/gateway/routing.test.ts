import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { authorize } from '../../../src/core/authorize.js';
import { parseCommand } from '../../../src/core/commands.js';
import type { MessageEvent } from '../../../src/core/adapter.js';
import { sessionKeyFor } from '../../../src/core/session-key.js';

const event = (over: Partial<MessageEvent> = {}): MessageEvent => ({
  platform: 'telegram',
  messageId: '1',
  chat: { id: '42', kind: 'dm' },
  sender: { id: '7', name: '@alice', isBot: false },
  text: 'hi',
  media: [],
  mentioned: false,
  receivedAt: 0,
  ...over,
});

describe('session keys', () => {
  test('DMs: profile + platform + chat', () => {
    assert.equal(sessionKeyFor({ profile: 'work', event: event() }), 'work:telegram:42');
  });
  test('groups add the sender, threads add the thread', () => {
    const group = event({ chat: { id: '-100', kind: 'group', threadId: '9' } });
    assert.equal(sessionKeyFor({ profile: 'work', event: group }), 'work:telegram:-100:thread=9:user=7');
    const other = event({ chat: { id: '-100', kind: 'group', threadId: '9' }, sender: { id: '8', isBot: false } });
    assert.notEqual(sessionKeyFor({ profile: 'work', event: group }), sessionKeyFor({ profile: 'work', event: other }));
  });
  test('profiles never share a key; colons in ids cannot collide', () => {
    assert.notEqual(sessionKeyFor({ profile: 'work', event: event() }), sessionKeyFor({ profile: 'personal', event: event() }));
    const a = event({ chat: { id: 'a:b', kind: 'dm' } });
    const b = event({ chat: { id: 'a', kind: 'dm', threadId: 'b' } });
    assert.notEqual(sessionKeyFor({ profile: 'p', event: a }), sessionKeyFor({ profile: 'p', event: b }));
  });
});

describe('slash commands', () => {
  test('known commands and aliases', () => {
    assert.deepEqual(parseCommand({ text: '/stop' }), { kind: 'command', name: 'stop', args: '' });
    assert.deepEqual(parseCommand({ text: '/reset please' }), { kind: 'command', name: 'new', args: 'please' });
    assert.deepEqual(parseCommand({ text: '/STATUS@hermes_bot' }), { kind: 'command', name: 'status', args: '' });
  });
  test('unknown commands are reported, paths and prose are not commands', () => {
    assert.deepEqual(parseCommand({ text: '/frob' }), { kind: 'unknown', name: 'frob', args: '' });
    assert.deepEqual(parseCommand({ text: '/etc/hosts is odd' }), { kind: 'none' });
    assert.deepEqual(parseCommand({ text: '/usr/local-bin/x' }), { kind: 'none' });
    assert.deepEqual(parseCommand({ text: '/etc/my-hosts' }), { kind: 'none' });
    assert.deepEqual(parseCommand({ text: 'what does /stop do?' }), { kind: 'none' });
    assert.deepEqual(parseCommand({ text: '/' }), { kind: 'none' });
    assert.deepEqual(parseCommand({ text: '/-x' }), { kind: 'none' });
  });
  test('names with - (skills) keep their text; @botname is dropped; built-ins are never unknown', () => {
    assert.deepEqual(parseCommand({ text: '/my-skill do it' }), { kind: 'unknown', name: 'my-skill', args: 'do it' });
    assert.deepEqual(parseCommand({ text: '/My-Skill@hermes_bot do it\nand more' }), { kind: 'unknown', name: 'my-skill', args: 'do it\nand more' });
    assert.deepEqual(parseCommand({ text: '/my_skill' }), { kind: 'unknown', name: 'my_skill', args: '' });
    assert.deepEqual(parseCommand({ text: '/skills' }), { kind: 'command', name: 'skills', args: '' });
    // Names of Object.prototype are not aliases.
    assert.deepEqual(parseCommand({ text: '/constructor' }), { kind: 'unknown', name: 'constructor', args: '' });
  });
});

describe('authorization', () => {
  test('allowlist by id or @username; display names never count; bots never', () => {
    const alice = event({ sender: { id: '7', name: 'Alice', username: 'alice', isBot: false } });
    assert.equal(authorize({ sender: alice.sender, allow: ['7'] }).allowed, true);
    assert.equal(authorize({ sender: alice.sender, allow: ['@ALICE'] }).allowed, true);
    assert.equal(authorize({ sender: alice.sender, allow: ['alice'] }).allowed, false, 'a bare word is an id, not a username');
    const impostor = event({ sender: { id: '999', name: '@alice', isBot: false } });
    assert.equal(authorize({ sender: impostor.sender, allow: ['@alice'] }).allowed, false, 'a display name must not pass');
    assert.deepEqual(authorize({ sender: event().sender, allow: ['bob'] }), { allowed: false, reason: 'not-allowed' });
    assert.deepEqual(authorize({ sender: event().sender, allow: [] }), { allowed: false, reason: 'not-allowed' });
    assert.deepEqual(authorize({ sender: event({ sender: { id: '7', isBot: true } }).sender, allow: 'all' }), { allowed: false, reason: 'bot' });
  });
});
