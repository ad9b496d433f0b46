import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { escapeHtml, renderHtml } from '../../../adapters/email/html.js';

describe('renderHtml', () => {
  test('renders Markdown', () => {
    const html = renderHtml({ markdown: '# Title\n\n**bold** and *em*\n\n- one\n- two\n\n`code`' });
    assert.match(html, /<h1>Title<\/h1>/);
    assert.match(html, /<strong>bold<\/strong> and <em>em<\/em>/);
    assert.match(html, /<li>one<\/li>/);
    assert.match(html, /<code>code<\/code>/);
  });

  test('raw HTML from the model is shown as text, never as markup', () => {
    const html = renderHtml({ markdown: 'Hi <script>alert(1)</script> <img src=x onerror=alert(1)>\n\n<div onclick="steal()">block</div>' });
    assert.doesNotMatch(html, /<script|<img|<div onclick/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /&lt;div onclick=&quot;steal\(\)&quot;&gt;block&lt;\/div&gt;/);
  });

  test('only http(s) and mailto links; images become links, never remote images', () => {
    const html = renderHtml({ markdown: '[bad](javascript:alert(1)) [data](data:text/html,x) [ok](https://example.org/?a=1&b="2") ![pic](https://example.org/p.png)' });
    assert.doesNotMatch(html, /javascript:|data:text|<img/);
    assert.match(html, /bad data/);
    assert.match(html, /<a href="https:\/\/example\.org\/\?a=1&amp;b=%222%22">ok<\/a>/);
    assert.match(html, /<a href="https:\/\/example\.org\/p\.png">pic<\/a>/);
  });

  test('code keeps its content, escaped', () => {
    assert.match(renderHtml({ markdown: '```\n<b>x</b> & y\n```' }), /<pre><code>&lt;b&gt;x&lt;\/b&gt; &amp; y/);
  });

  test('escapeHtml escapes the five special characters', () => {
    assert.equal(escapeHtml({ text: `<a href="x">'&'</a>` }), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
