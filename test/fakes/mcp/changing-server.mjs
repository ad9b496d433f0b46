// A small MCP server on the official SDK over stdio whose tool list changes: calling `grow` registers a tool `extra`,
// and the SDK tells the client (notifications/tools/list_changed). Run: node changing-server.mjs
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'changing-test', version: '1.0.0' });
let grown = false;
server.registerTool('grow', { description: 'Adds a tool named extra to this server.', inputSchema: {} }, async () => {
  if (!grown) {
    grown = true;
    server.registerTool('extra', { description: 'Says hello.', inputSchema: { name: z.string() }, annotations: { readOnlyHint: true } }, async ({ name }) => ({
      content: [{ type: 'text', text: `hello ${name}` }],
    }));
  }
  return { content: [{ type: 'text', text: 'grown' }] };
});
await server.connect(new StdioServerTransport());
