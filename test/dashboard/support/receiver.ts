import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on loopback: answers every request with `status` and the HTML given for GET /. */
export async function startReceiver(
  options: { status?: number; html?: string } = {},
): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => {
      if (request.method === 'GET' && options.html !== undefined)
        response.writeHead(200, { 'content-type': 'text/html' }).end(options.html);
      else response.writeHead(options.status ?? 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
