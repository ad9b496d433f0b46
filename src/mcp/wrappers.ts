import type { McpToolInfo } from './connection.js';
import type { McpToolKind } from './snapshot.js';

/** A wrapper tool over a server's resources or prompts, as offerMcpTools takes it. */
type WrapperInfo = McpToolInfo & { readonly kind: Exclude<McpToolKind, 'tool'> };

const cursorSchema = { type: 'object', properties: { cursor: { type: 'string', description: 'The nextCursor of the previous page, for the next one.' } } };

/**
 * Hermes Agent's wrappers over a server's resources (list_resources, read_resource) and prompts (list_prompts,
 * get_prompt), for the servers that have them: all read-only. Their descriptions are ours, not the server's.
 */
export function wrapperTools(params: { server: string; resources: boolean; prompts: boolean }): WrapperInfo[] {
  const { server } = params;
  const out: WrapperInfo[] = [];
  if (params.resources) {
    out.push(
      { kind: 'list_resources', name: 'list_resources', description: `List the resources (files, records, documents) the MCP server "${server}" offers, with their URIs.`, inputSchema: cursorSchema, readOnly: true },
      {
        kind: 'read_resource',
        name: 'read_resource',
        description: `Read one resource of the MCP server "${server}" by its URI (from its list_resources).`,
        inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
        readOnly: true,
      },
    );
  }
  if (params.prompts) {
    out.push(
      { kind: 'list_prompts', name: 'list_prompts', description: `List the prompt templates the MCP server "${server}" offers, with their arguments.`, inputSchema: cursorSchema, readOnly: true },
      {
        kind: 'get_prompt',
        name: 'get_prompt',
        description: `Get one prompt template of the MCP server "${server}" filled in with its arguments.`,
        inputSchema: { type: 'object', properties: { name: { type: 'string' }, arguments: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['name'] },
        readOnly: true,
      },
    );
  }
  return out;
}

/** A string field of a loosely known object ('' when absent or not a string). */
function str(params: { of: unknown; key: string }): string {
  if (typeof params.of !== 'object' || params.of === null) return '';
  const value = (params.of as Record<string, unknown>)[params.key];
  return typeof value === 'string' ? value : '';
}

/** An array field of a loosely known object ([] when absent). */
function list(params: { of: unknown; key: string }): unknown[] {
  if (typeof params.of !== 'object' || params.of === null) return [];
  const value = (params.of as Record<string, unknown>)[params.key];
  return Array.isArray(value) ? value : [];
}

/** A wrapper's result as text for the model (never an error result: a failed request throws instead). */
export function wrapperResultText(params: { kind: Exclude<McpToolKind, 'tool'>; result: unknown }): { text: string; isError: boolean } {
  const { result } = params;
  const more = str({ of: result, key: 'nextCursor' });
  const next = more === '' ? [] : [`(more: call again with cursor "${more}")`];
  switch (params.kind) {
    case 'list_resources': {
      const lines = list({ of: result, key: 'resources' }).map((r) => {
        const details = [str({ of: r, key: 'mimeType' }), str({ of: r, key: 'description' })].filter((d) => d !== '').join('; ');
        return `- ${str({ of: r, key: 'uri' })} ${str({ of: r, key: 'name' })}${details === '' ? '' : ` (${details})`}`;
      });
      return { text: [...(lines.length > 0 ? lines : ['(no resources)']), ...next].join('\n'), isError: false };
    }
    case 'read_resource': {
      const parts = list({ of: result, key: 'contents' }).map((c) => {
        const uri = str({ of: c, key: 'uri' });
        const text = (c as Record<string, unknown>)['text'];
        if (typeof text === 'string') return `[resource ${uri}]\n${text}`;
        return `[resource ${uri} (${str({ of: c, key: 'mimeType' }) || 'binary'}, ${Math.floor((str({ of: c, key: 'blob' }).length * 3) / 4)} bytes): not shown]`;
      });
      return { text: parts.join('\n') || '(empty resource)', isError: false };
    }
    case 'list_prompts': {
      const lines = list({ of: result, key: 'prompts' }).map((p) => {
        const args = list({ of: p, key: 'arguments' }).map((a) => `${str({ of: a, key: 'name' })}${(a as Record<string, unknown>)['required'] === true ? '' : '?'}`);
        const description = str({ of: p, key: 'description' });
        return `- ${str({ of: p, key: 'name' })}(${args.join(', ')})${description === '' ? '' : `: ${description}`}`;
      });
      return { text: [...(lines.length > 0 ? lines : ['(no prompts)']), ...next].join('\n'), isError: false };
    }
    case 'get_prompt': {
      const description = str({ of: result, key: 'description' });
      const messages = list({ of: result, key: 'messages' }).map((m) => {
        const content = (m as Record<string, unknown>)['content'];
        const text = str({ of: content, key: 'type' }) === 'text' ? str({ of: content, key: 'text' }) : `[a ${str({ of: content, key: 'type' }) || 'content'} part: not shown]`;
        return `${str({ of: m, key: 'role' }) || 'user'}: ${text}`;
      });
      return { text: [...(description === '' ? [] : [description]), ...messages].join('\n') || '(empty prompt)', isError: false };
    }
  }
}
