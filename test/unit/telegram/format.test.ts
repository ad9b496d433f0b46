import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { plainText, toTelegramHtml, visibleLength } from '../../../adapters/telegram/format.js';

/** Inline tags that may hold text and each other (not code or pre). */
const WRAPPERS = new Set(['b', 'i', 's', 'a', 'blockquote']);
const TAG = /<(\/?)([^\s>/]+)([^>]*)>/g;
const REFERENCE = /&(?:lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);/g;

/** Throws unless a run of text between tags is escaped: no < or >, every & starts a reference Telegram knows. */
function assertText(text: string, where: string): void {
  assert.ok(!/[<>]/.test(text), `stray < or > in text${where}`);
  assert.ok(!text.replace(REFERENCE, '').includes('&'), `bare & in text${where}`);
}

/** Throws unless `html` is something Telegram's HTML parser accepts, by the rules in its Bot API docs. */
function assertTelegramHtml(html: string, source: string): void {
  const where = `\nmarkdown: ${JSON.stringify(source)}\nhtml: ${JSON.stringify(html)}`;
  const stack: string[] = [];
  let last = 0;
  for (const match of html.matchAll(TAG)) {
    assertText(html.slice(last, match.index), where);
    last = match.index + match[0].length;
    const [, slash, name = '', attrs = ''] = match;
    const top = stack.at(-1);
    if (slash === '/') {
      assert.equal(top, name, `</${name}> does not close <${top ?? 'nothing'}>${where}`);
      stack.pop();
      continue;
    }
    if (name === 'a') assert.match(attrs, /^ href="(https?|tg|mailto):[^"<>]+"$/, `bad link${where}`);
    else if (name === 'code' && top === 'pre') assert.match(attrs, /^( class="language-[\w+#.-]+")?$/, `bad class${where}`);
    else assert.equal(attrs, '', `attributes on <${name}>${where}`);
    assert.ok(WRAPPERS.has(name) || name === 'code' || name === 'pre', `tag <${name}> is not Telegram's${where}`);
    assert.ok(top !== 'pre' || name === 'code', `<${name}> inside <pre>${where}`);
    assert.ok(top !== 'code', `<${name}> inside <code>${where}`);
    if (name === 'pre') assert.equal(stack.length, 0, `<pre> nested in ${stack.join('>')}${where}`);
    if (name === 'code' && top !== 'pre') assert.ok(stack.every((t) => t === 'blockquote'), `<code> in ${stack.join('>')}${where}`);
    if (name === 'a' || name === 'blockquote') assert.ok(!stack.includes(name), `nested <${name}>${where}`);
    stack.push(name);
  }
  assertText(html.slice(last), where);
  assert.deepEqual(stack, [], `unclosed tags${where}`);
}

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '**', '*', '_', '__', '`', '```', '```ts\n', '\n', '\n\n', '- ', '1. ', '  ', '    ', '> ', '# ', '[', ']', '(', ')',
  'http://x.com/a', 'javascript:alert(1)', '<b>', '</i>', '&amp;', '&copy;', '&#128512;', '&', '<', '>', '"', '|', '|---|',
  '---', '~~', '![', 'word', ' ', '😀', '𝔘', '\\', 'tg://user?id=1', 'a@b.co', '- [ ] ', '||', '\t', '10. ', '<!--', '\r\n',
];

/** Random markdown-like text built from the syntax characters that matter. */
function fuzzMarkdown(next: () => number): string {
  const count = 1 + Math.floor(next() * 40);
  let out = '';
  for (let i = 0; i < count; i++) out += PIECES[Math.floor(next() * PIECES.length)] ?? '';
  return out;
}

const REPLY = [
  '# Plan', '', 'Here is **what I found** in `src/x.ts` (see [the docs](https://example.com/docs?a=1&b=2)):', '',
  '1. Read the file', '2. Fix the _bug_', '   - nested `a<b` detail', '   - another ~~old~~ one', '', '> quoted **note**', '',
  '```ts', 'const a: Array<number> = [1, 2];', 'if (a.length > 1 && ok) { run("x"); }', '```', '',
  '| col | val |', '|-----|-----|', '| a   | 1   |', '', '---', 'Done 🎉 — ![chart](https://example.com/c.png)',
].join('\n');

describe('toTelegramHtml', () => {
  test('inline formatting maps to Telegram tags', () => {
    assert.equal(toTelegramHtml({ markdown: '**bold** and _it_ and `x<y`' }), '<b>bold</b> and <i>it</i> and <code>x&lt;y</code>');
    assert.equal(toTelegramHtml({ markdown: '~~gone~~ *em*' }), '<s>gone</s> <i>em</i>');
  });

  test('a fenced block keeps its content verbatim with its language', () => {
    const code = 'if (a < b && c > "d") {\n  return `x`; // **not bold**\n}';
    assert.equal(toTelegramHtml({ markdown: '```ts\n' + code + '\n```' }),
      `<pre><code class="language-ts">${code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code></pre>`);
    assert.equal(toTelegramHtml({ markdown: '```\nplain\n```' }), '<pre>plain</pre>');
    assert.equal(toTelegramHtml({ markdown: '```ts"onclick="x more\ny\n```' }), '<pre><code class="language-tsonclickx">y</code></pre>');
  });

  test('code spans keep their content verbatim (no markdown, no entity decoding)', () => {
    assert.equal(toTelegramHtml({ markdown: '`**a** &amp; _b_ <i>`' }), '<code>**a** &amp;amp; _b_ &lt;i&gt;</code>');
  });

  test('code inside bold or a link splits them, since Telegram cannot nest code', () => {
    assert.equal(toTelegramHtml({ markdown: '**run `npm ci` now**' }), '<b>run </b><code>npm ci</code><b> now</b>');
    assert.equal(toTelegramHtml({ markdown: '[see `x`](https://a.io)' }), '<a href="https://a.io/">see </a><code>x</code>');
  });

  test('headings are bold lines, rules are dashes, raw HTML is escaped text', () => {
    assert.equal(toTelegramHtml({ markdown: '## Title\ntext' }), '<b>Title</b>\ntext');
    assert.equal(toTelegramHtml({ markdown: 'a\n\n---\n\nb' }), 'a\n\n———\n\nb');
    assert.equal(toTelegramHtml({ markdown: 'x <span class="y">z</span>' }), 'x &lt;span class="y"&gt;z&lt;/span&gt;');
    assert.equal(toTelegramHtml({ markdown: '<div>\n<b>hi</b>\n</div>' }), '&lt;div&gt;\n&lt;b&gt;hi&lt;/b&gt;\n&lt;/div&gt;');
  });

  test('lists become bullet and number lines, nested ones indented', () => {
    const md = '- a\n- b\n  - c\n    1. d\n    2. e\n- f';
    assert.equal(toTelegramHtml({ markdown: md }), '• a\n• b\n  • c\n    1. d\n    2. e\n• f');
    assert.equal(toTelegramHtml({ markdown: '3. x\n4. **y**' }), '3. x\n4. <b>y</b>');
    assert.equal(toTelegramHtml({ markdown: '- [ ] todo\n- [x] done' }), '• ☐ todo\n• ☑ done');
    assert.equal(toTelegramHtml({ markdown: '- a\n\n  more\n- b' }), '• a\n\n  more\n• b');
    // Wrapped lines are not indented: markdown lets them start unindented, and indenting would lengthen them.
    assert.equal(toTelegramHtml({ markdown: '1. First\nmore text\n2. Second\n   again' }), '1. First\nmore text\n2. Second\nagain');
    assert.equal(toTelegramHtml({ markdown: '- a\nlazy\n  - b' }), '• a\nlazy\n• b');
    assert.equal(toTelegramHtml({ markdown: 'para\n   wrapped\n\t- x\n  \tmore' }), 'para\nwrapped\n- x\nmore');
  });

  test('a code block inside a list is not indented', () => {
    assert.equal(toTelegramHtml({ markdown: '- step\n\n  ```sh\n  ls -l\n    x\n  ```' }),
      '• step\n\n<pre><code class="language-sh">ls -l\n  x</code></pre>');
  });

  test('tables become a pre block of their source', () => {
    const table = '| a | b<c |\n|---|---|\n| 1 | 2 |';
    assert.equal(toTelegramHtml({ markdown: `${table}\n\nafter` }), `<pre>${table.replace('<', '&lt;')}</pre>\n\nafter`);
  });

  test('quotes: nested ones flatten, a code block closes and reopens the quote', () => {
    assert.equal(toTelegramHtml({ markdown: '> a\n> > b' }), '<blockquote>a\nb</blockquote>');
    assert.equal(toTelegramHtml({ markdown: '> a\n> ```\n> c\n> ```\n> d' }),
      '<blockquote>a</blockquote>\n<pre>c</pre>\n<blockquote>d</blockquote>');
  });

  test('links only for http(s), tg and mailto URLs; everything else stays text', () => {
    assert.equal(toTelegramHtml({ markdown: '[x](javascript:alert(1))' }), 'x');
    assert.equal(toTelegramHtml({ markdown: '[x](data:text/html,hi) [y](./rel.md) [z](vbscript:a)' }), 'x y z');
    assert.equal(toTelegramHtml({ markdown: '[me](tg://user?id=42) <a@b.co>' }),
      '<a href="tg://user?id=42">me</a> <a href="mailto:a@b.co">a@b.co</a>');
    assert.equal(toTelegramHtml({ markdown: '[q](https://x.io/?a=1&amp;b="2")' }), '<a href="https://x.io/?a=1&amp;b=%222%22">q</a>');
    assert.equal(toTelegramHtml({ markdown: 'see https://x.io/p.' }), 'see <a href="https://x.io/p">https://x.io/p</a>.');
  });

  test('images become a link to the image', () => {
    assert.equal(toTelegramHtml({ markdown: '![a chart](https://x.io/c.png)' }), '<a href="https://x.io/c.png">a chart</a>');
    assert.equal(toTelegramHtml({ markdown: '![](https://x.io/c.png)' }), '<a href="https://x.io/c.png">https://x.io/c.png</a>');
    assert.equal(toTelegramHtml({ markdown: '![pic](javascript:x)' }), 'pic');
  });

  test('entities: common ones decoded, unknown ones literal, all re-escaped for Telegram', () => {
    assert.equal(toTelegramHtml({ markdown: 'a &amp; b &copy; &bogus; &#60; &#x1F600; 1 < 2 & "q"' }),
      'a &amp; b © &amp;bogus; &lt; 😀 1 &lt; 2 &amp; "q"');
  });

  test('emoji and non-BMP characters pass through intact', () => {
    const text = '👨‍👩‍👧 🇩🇪 𝔘𝔫𝔦 👍🏽 é';
    assert.equal(toTelegramHtml({ markdown: `**${text}** ${text}` }), `<b>${text}</b> ${text}`);
    assert.equal(plainText({ markdown: `_${text}_` }), text);
  });

  test('partial markdown from a stream is well-formed at every prefix', () => {
    for (let end = 0; end <= REPLY.length; end++) {
      const markdown = REPLY.slice(0, end);
      assertTelegramHtml(toTelegramHtml({ markdown }), markdown);
    }
    assert.equal(toTelegramHtml({ markdown: '**unclosed' }), '**unclosed');
    assert.equal(toTelegramHtml({ markdown: 'a [link(http://x' }), 'a [link(<a href="http://x/">http://x</a>');
    assert.equal(toTelegramHtml({ markdown: 'x\n```py\nprint(1 < 2)' }), 'x\n<pre><code class="language-py">print(1 &lt; 2)</code></pre>');
    assert.equal(toTelegramHtml({ markdown: '```' }), '');
  });

  test('the HTML checker used below rejects what Telegram rejects', () => {
    for (const bad of ['<b><i>x</b></i>', '<b>x', 'a < b', 'a & b', '<u2>x</u2>', '<b><code>x</code></b>', '<pre><b>x</b></pre>',
      '<a href="javascript:x">y</a>', '<blockquote><blockquote>x</blockquote></blockquote>', '<i><pre>x</pre></i>']) {
      assert.throws(() => assertTelegramHtml(bad, ''), assert.AssertionError, bad);
    }
    assertTelegramHtml('<blockquote><b>a</b> <code>c</code></blockquote><pre><code class="language-ts">&lt;&amp;</code></pre>', '');
  });

  test('random markdown always gives Telegram-valid HTML within the length bound', () => {
    const next = random(7);
    for (let i = 0; i < 3000; i++) {
      const markdown = fuzzMarkdown(next);
      const html = toTelegramHtml({ markdown });
      assertTelegramHtml(html, markdown);
      // Documented bound: renumbering adds at most one unit per digit in the source; marked's tab expansion in list items a few.
      const slack = (markdown.match(/\d/g)?.length ?? 0) + 3 * (markdown.match(/\t/g)?.length ?? 0);
      assert.ok(visibleLength({ html }) <= markdown.length + slack, `too long: ${JSON.stringify(markdown)}`);
      if (!html.includes('<a ')) assert.equal(plainText({ markdown }), htmlToVisible(html), JSON.stringify(markdown));
    }
  });
});

/** The visible text of Telegram HTML, decoded the way Telegram does. */
function htmlToVisible(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

describe('visible length', () => {
  test('counts UTF-16 units of the text with tags removed and entities decoded', () => {
    assert.equal(visibleLength({ html: '<b>a&amp;b</b> &lt;&#128512;&#x41;&quot;' }), 3 + 1 + 1 + 2 + 1 + 1);
    assert.equal(visibleLength({ html: '<pre><code class="language-ts">x</code></pre>' }), 1);
  });

  test('never exceeds the markdown length unless list numbers widen', () => {
    const noLists = REPLY.replace(/^ *(\d\.|-) /gm, '');
    assert.ok(visibleLength({ html: toTelegramHtml({ markdown: noLists }) }) <= noLists.length);
    assert.ok(visibleLength({ html: toTelegramHtml({ markdown: REPLY }) }) <= REPLY.length);
    const md = 'a &amp; b\n\n\n\n# H\n> q\n\n`c`  \n**d** [e](https://x.io) <https://y.io> ![f](https://z.io/f.png)\n\n***';
    assert.ok(visibleLength({ html: toTelegramHtml({ markdown: md }) }) <= md.length);
  });

  test('list overhead is only the numbers wider than their source markers', () => {
    const md = Array.from({ length: 12 }, (_, i) => `1. item ${i}`).join('\n');
    const html = toTelegramHtml({ markdown: md });
    assert.ok(html.endsWith('10. item 9\n11. item 10\n12. item 11'));
    assert.equal(visibleLength({ html }), md.length + 3);
  });
});

describe('plainText', () => {
  test('has the same content without markup, link URLs spelled out', () => {
    assert.equal(plainText({ markdown: '**b** `x<y` [docs](https://d.io) <https://e.io>' }), 'b x<y docs (https://d.io) https://e.io');
    assert.equal(plainText({ markdown: '> q\n\n- a\n  - b\n\n```js\nx && y\n```' }), 'q\n\n• a\n  • b\n\nx && y');
    assert.equal(plainText({ markdown: 'x &amp; &lt;b&gt; [j](javascript:void)' }), 'x & <b> j');
  });
});
