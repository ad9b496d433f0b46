import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ChannelType, Client, DiscordAPIError, Events, GatewayIntentBits, Partials, type Message, type TextChannel } from 'discord.js';
import { FakeDiscord, Intent } from '../../fakes/discord/index.js';

const TOKEN = 'fake-bot-token.abc.def';
const GUILD = '200000000000000001';
const GENERAL = '300000000000000001';
const ALICE = { id: '400000000000000001', username: 'alice' };
const BOT_ID = '100000000000000001';
const INTENTS = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.DirectMessages
  | GatewayIntentBits.MessageContent;

let fake: FakeDiscord;
let client: Client;
let general: TextChannel;
const received: Message[] = [];

/** A discord.js client pointed at the fake, not yet logged in. */
function newClient(): Client {
  return new Client({ intents: INTENTS, partials: [Partials.Channel], rest: { api: fake.apiBase } });
}

/** Waits until discord.js has emitted messageCreate for a message with `content`. */
function receivedWith(content: string): Promise<Message> {
  return fake.waitFor({ predicate: () => received.find((m) => m.content === content), timeoutMs: 3_000, what: `messageCreate "${content}"` });
}

before(async () => {
  fake = new FakeDiscord({
    token: TOKEN, botUserId: BOT_ID, applicationId: '500000000000000001', heartbeatIntervalMs: 200,
    guilds: [{ id: GUILD, name: 'Test Guild', channels: [{ id: GENERAL, name: 'general', type: 0 }] }],
  });
  await fake.start();
  client = newClient();
  client.on(Events.MessageCreate, (message) => received.push(message));
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(TOKEN);
  await ready;
  const channel = await client.channels.fetch(GENERAL);
  assert.ok(channel?.type === ChannelType.GuildText);
  general = channel;
});

after(async () => {
  await client.destroy();
  await fake.close();
});

describe('gateway', () => {
  test('login: ClientReady fires with the bot user and guild; intents recorded; heartbeats acked', async () => {
    assert.equal(client.user?.id, BOT_ID);
    assert.equal(client.guilds.cache.get(GUILD)?.name, 'Test Guild');
    assert.deepEqual(fake.identifyIntents, [INTENTS]);
    assert.equal(fake.identifies, 1);
    assert.equal(fake.sessions, 1);
    await fake.waitFor({ predicate: () => fake.heartbeats >= 2, timeoutMs: 2_000, what: 'two heartbeats' });
    await fake.waitFor({ predicate: () => client.ws.ping >= 0, timeoutMs: 2_000, what: 'a measured ping' });
  });

  test('a wrong token is refused with 401 and discord.js reports TokenInvalid', async () => {
    const other = new Client({ intents: INTENTS, rest: { api: fake.apiBase } });
    await assert.rejects(other.login('wrong-token'), (error: Error & { code?: string }) => error.code === 'TokenInvalid');
    await other.destroy();
    const refused = fake.calls.at(-1);
    assert.equal(refused?.path, '/gateway/bot');
  });

  test('MESSAGE_CREATE reaches messageCreate with author, member, mention and a downloadable attachment', async () => {
    const sent = fake.messageCreate({
      channelId: GENERAL, author: ALICE, content: `<@${BOT_ID}> hello`, mentions: [{ id: BOT_ID, username: 'hermes-test', bot: true }],
      attachments: [{ name: 'note.txt', bytes: Buffer.from('user file'), contentType: 'text/plain' }],
    });
    const message = await receivedWith(`<@${BOT_ID}> hello`);
    assert.equal(message.id, sent['id']);
    assert.equal(message.author.username, 'alice');
    assert.equal(message.guildId, GUILD);
    assert.ok(message.mentions.users.has(BOT_ID));
    const attachment = message.attachments.first();
    assert.equal(attachment?.name, 'note.txt');
    const download = await fetch(attachment?.url ?? '');
    assert.equal(Buffer.from(await download.arrayBuffer()).toString(), 'user file');
  });

  test('DMs: openDm gives a channel whose messages arrive and can be answered', async () => {
    const dm = fake.openDm({ userId: ALICE.id, username: ALICE.username });
    fake.messageCreate({ channelId: dm, author: ALICE, content: 'dm hello' });
    const message = await receivedWith('dm hello');
    assert.equal(message.channel.type, ChannelType.DM);
    await message.reply('dm answer');
    const answers = fake.channelMessages({ channelId: dm });
    assert.equal(answers.at(-1)?.content, 'dm answer');
    assert.deepEqual(answers.at(-1)?.message_reference, { message_id: message.id, fail_if_not_exists: true });
  });
});

describe('REST', () => {
  test('send, edit, reply, react, typing and delete are recorded', async () => {
    const sent = await general.send({ content: 'first', allowedMentions: { parse: [] } });
    const edited = await sent.edit('second');
    assert.equal(edited.content, 'second');
    await sent.react('👍');
    await general.sendTyping();
    const record = fake.channelMessages({ channelId: GENERAL }).find((m) => m.id === sent.id);
    assert.equal(record?.edits, 1);
    assert.deepEqual(record?.history, ['first', 'second']);
    assert.deepEqual(record?.allowed_mentions, { parse: [] });
    assert.deepEqual(record?.reactions, ['👍']);
    assert.equal(fake.typingCount({ channelId: GENERAL }), 1);
    await sent.delete();
    assert.equal(fake.channelMessages({ channelId: GENERAL }).find((m) => m.id === sent.id)?.deleted, true);
  });

  test('file attachments arrive as multipart with their bytes', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const sent = await general.send({ content: 'with file', files: [{ attachment: bytes, name: 'data.bin' }] });
    const record = fake.channelMessages({ channelId: GENERAL }).find((m) => m.id === sent.id);
    assert.equal(record?.attachments[0]?.name, 'data.bin');
    assert.deepEqual(record?.attachments[0]?.bytes, bytes);
    assert.equal(sent.attachments.first()?.size, bytes.length);
  });

  test('content over 2000 characters is refused with 50035; unknown channels with 10003', async () => {
    await assert.rejects(general.send('x'.repeat(2001)), (error: unknown) => error instanceof DiscordAPIError && error.code === 50035);
    await assert.rejects(client.rest.post('/channels/1/messages', { body: { content: 'x' } }),
      (error: unknown) => error instanceof DiscordAPIError && error.code === 10003 && error.status === 404);
  });

  test('a 429 on send is waited out by discord.js and yields exactly one message', async () => {
    fake.failNext({ route: 'POST /channels/:id/messages', status: 429, retryAfter: 0.4 });
    const before = fake.channelMessages({ channelId: GENERAL }).length;
    const started = Date.now();
    await general.send('after the limit');
    const waited = Date.now() - started;
    assert.ok(waited >= 400, `discord.js waited only ${waited} ms`);
    assert.ok(waited < 3_000, `discord.js waited ${waited} ms`);
    const now = fake.channelMessages({ channelId: GENERAL });
    assert.equal(now.length, before + 1);
    assert.equal(now.at(-1)?.content, 'after the limit');
    const posts = fake.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${GENERAL}/messages` && c.at >= started);
    assert.equal(posts.length, 2);
  });

  test('threads and application commands', async () => {
    const thread = await general.threads.create({ name: 'topic' });
    assert.equal(fake.channel({ channelId: thread.id })?.['parent_id'], GENERAL);
    const starter = await general.send('start here');
    const fromMessage = await starter.startThread({ name: 'from message' });
    assert.equal(fromMessage.id, starter.id);
    await client.application?.commands.set([{ name: 'ask', description: 'Ask the agent' }]);
    assert.equal(fake.commandOverwrites, 1);
    assert.deepEqual(fake.commands.map((c) => c['name']), ['ask']);
    const fetched = await client.application?.commands.fetch();
    assert.equal(fetched?.size, 1);
  });

  test('without MESSAGE_CONTENT a guild message not mentioning the bot arrives with empty content', async () => {
    const narrow = new Client({ intents: INTENTS & ~Intent.MessageContent, rest: { api: fake.apiBase } });
    const seen: Message[] = [];
    narrow.on(Events.MessageCreate, (message) => seen.push(message));
    await narrow.login(TOKEN);
    await fake.waitFor({ predicate: () => narrow.isReady(), timeoutMs: 3_000, what: 'second client ready' });
    fake.messageCreate({ channelId: GENERAL, author: ALICE, content: 'secret' });
    const message = await fake.waitFor({ predicate: () => seen.find((m) => m.author.id === ALICE.id), timeoutMs: 3_000 });
    assert.equal(message.content, '');
    await receivedWith('secret');
    await narrow.destroy();
  });
});

describe('gateway failures', () => {
  test('closeWith(4000): discord.js resumes on resume_gateway_url, missed events are replayed, no new IDENTIFY', async () => {
    const identifies = fake.identifies;
    const resumed = new Promise<void>((resolve) => client.once(Events.ShardResume, () => resolve()));
    await fake.closeWith({ code: 4000 });
    fake.messageCreate({ channelId: GENERAL, author: ALICE, content: 'while away' });
    await resumed;
    assert.equal(fake.resumes, 1);
    assert.deepEqual(fake.resumePaths, ['/gateway-resume']);
    assert.equal(fake.identifies, identifies);
    await receivedWith('while away');
    fake.messageCreate({ channelId: GENERAL, author: ALICE, content: 'after resume' });
    await receivedWith('after resume');
  });

  test('op 7 RECONNECT: discord.js reconnects and resumes', async () => {
    const resumed = new Promise<void>((resolve) => client.once(Events.ShardResume, () => resolve()));
    fake.requestReconnect();
    await resumed;
    assert.equal(fake.resumes, 2);
    fake.messageCreate({ channelId: GENERAL, author: ALICE, content: 'after reconnect' });
    await receivedWith('after reconnect');
  });

  test('closeWith(4004): discord.js reports authentication failed and does not reconnect', async () => {
    const errors: Error[] = [];
    client.on(Events.ShardError, (error) => errors.push(error));
    const disconnected = new Promise<number>((resolve) => client.once(Events.ShardDisconnect, (event) => resolve(event.code)));
    const identifies = fake.identifies;
    await fake.closeWith({ code: 4004 });
    assert.equal(await disconnected, 4004);
    assert.match(errors[0]?.message ?? '', /Authentication failed/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(fake.sessions, 0);
    assert.equal(fake.identifies, identifies);
  });
});

describe('nonces', () => {
  test('with enforce_nonce a repeated nonce gets the message already created; without it, or with another nonce, a new one', async () => {
    const first = await general.send({ content: 'once', nonce: 'orphan-nonce-1', enforceNonce: true });
    const again = await general.send({ content: 'once (again)', nonce: 'orphan-nonce-1', enforceNonce: true });
    assert.equal(again.id, first.id);
    assert.equal(again.content, 'once', 'the earlier message, unchanged');
    const plain = await general.send({ content: 'unenforced', nonce: 'orphan-nonce-1', enforceNonce: false });
    assert.notEqual(plain.id, first.id);
    const other = await general.send({ content: 'other', nonce: 'orphan-nonce-2', enforceNonce: true });
    assert.notEqual(other.id, first.id);
    assert.equal(fake.channelMessages({ channelId: GENERAL }).filter((m) => m.content === 'once').length, 1);
    await assert.rejects(
      client.rest.post(`/channels/${GENERAL}/messages`, { body: { content: 'x', nonce: 'n'.repeat(26), enforce_nonce: true } }),
      (error: unknown) => error instanceof DiscordAPIError && error.code === 50035,
    );
  });

  test('holdNext: the message is created at once, its answer waits for release', async () => {
    const held = fake.holdNext({ route: 'POST /channels/:channel/messages' });
    const sending = general.send({ content: 'held answer' });
    await held.reached;
    assert.ok(fake.channelMessages({ channelId: GENERAL }).some((m) => m.content === 'held answer'), 'created before the answer');
    let answered = false;
    void sending.then(() => (answered = true));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(answered, false);
    held.release();
    assert.equal((await sending).content, 'held answer');
  });
});
