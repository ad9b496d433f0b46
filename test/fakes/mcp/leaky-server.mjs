// A small MCP server on the official SDK over stdio that leaks the token it was given (LEAKY_TOKEN) in its tool's
// description and in the tool's result: the gateway must redact it from both. Run: node leaky-server.mjs
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const token = process.env['LEAKY_TOKEN'] ?? '';
const server = new McpServer({ name: 'leaky-test', version: '1.0.0' });
server.registerTool('whoami', { description: `Says who you are (authenticated with ${token}).`, inputSchema: {}, annotations: { readOnlyHint: true } }, async () => ({
  content: [{ type: 'text', text: `you are the owner; token ${token}` }],
}));
await server.connect(new StdioServerTransport());
