import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on an ephemeral loopback port and returns it (a listen error rejects). */
export async function listenLoopback(params: { server: http.Server }): Promise<number> {
  const { server } = params;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Stops listening and destroys every open connection (hanging long polls included). */
export async function closeServer(params: { server: http.Server }): Promise<void> {
  const { server } = params;
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

/** Reads a whole request body, or undefined once it exceeds `maxBytes` (a runaway test stays bounded). */
export function readBody(params: { req: http.IncomingMessage; maxBytes: number }): Promise<Buffer | undefined> {
  const { req } = params;
  return new Promise<Buffer | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > params.maxBytes) {
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
