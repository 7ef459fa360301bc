// The baseline of bench/proxy.ts, in its own process: a bare node:http streaming reverse proxy that
// does nothing else. Each request goes to the origin given as the first argument over a keep-alive
// Agent (method, target, headers but the hop-by-hop ones, Host set to the origin's; the body piped),
// and the answer comes back piped, status and headers as they came. No journal, no checks, no
// parsing of either body. It replies with its URL over IPC once it listens.
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

const origin = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = { ...headers };
  for (const name of HOP_BY_HOP) delete kept[name];
  return kept;
}

const server = createServer((incoming, outgoing) => {
  const forwarded = request(
    { host: origin.hostname, port: origin.port, method: incoming.method, path: incoming.url, headers: { ...endToEnd(incoming.headers), host: origin.host }, agent },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.pipe(outgoing);
    },
  );
  forwarded.on('error', () => outgoing.destroy());
  incoming.pipe(forwarded);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
process.on('disconnect', () => process.exit(0));
