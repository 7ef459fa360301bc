// The baseline server of bench/server.ts and bench/postgres.ts, in its own process: bare node:http
// answering any GET with the GET bytes and any POST, once its whole body is read, with the create
// bytes; no routing, no auth, no storage. It receives both answers (base64) over IPC and replies
// with its URL. bench/server.ts also runs one as the postback receiver: asked `count`, it replies
// with the number of POSTs it has answered.
// With the argument `fastify`, the same answers come from fastify instead: a route for each (the GET's
// with an :id parameter), the POST's JSON body parsed by fastify's own parser and dropped. That is the
// most any fastify server can do here, and so the framework's own share of serve's time.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

async function startFastify(get: Buffer, post: Buffer): Promise<string> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  const type = 'application/json';
  app.get('/api/v2/invoices/:id', async (_request, reply) => reply.type(type).send(get));
  app.post('/api/v2/invoices', async (_request, reply) => {
    posts++;
    return reply.type(type).send(post);
  });
  return app.listen({ port: 0, host: '127.0.0.1' });
}

let posts = 0;
process.on('message', (message: { get: string; post: string } | 'count') => {
  if (message === 'count') {
    process.send?.({ posts });
    return;
  }
  const get = Buffer.from(message.get, 'base64');
  const post = Buffer.from(message.post, 'base64');
  if (process.argv[2] === 'fastify') {
    void startFastify(get, post).then((url) => process.send?.({ url }));
    return;
  }
  const answer = (bytes: Buffer) => ({ 'content-type': 'application/json', 'content-length': bytes.length });
  const server = createServer((request, response) => {
    if (request.method === 'POST') {
      request.resume();
      request.on('end', () => {
        posts++;
        response.writeHead(200, answer(post)).end(post);
      });
    } else {
      request.resume();
      response.writeHead(200, answer(get)).end(get);
    }
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});
process.on('disconnect', () => process.exit(0));
