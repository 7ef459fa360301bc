// `pinvoice proxy --forward` (contract, "Hard-coded hosts"): code that names the gateway's host itself
// goes through the proxy by HTTPS_PROXY with the proxy's CA trusted. A CONNECT to the gateway's host is
// answered with a certificate of the proxy's CA for that host (a DNS name or an IP address) and its
// requests are forwarded, guarded, checked and journaled as reverse-proxied ones; a CONNECT to another
// host is tunnelled untouched (the client sees that server's certificate) and journaled as a tunnel,
// none of its bytes kept. Clients: curl, PHP's curl extension (as the CartHero storefront calls the
// gateway) and a Node client written as an integration reads HTTPS_PROXY. The proxy's journal is a
// SQLite file of its own whatever the engine: run on the SQLite project only.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect as connectTcp, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { connect as connectTls, type PeerCertificate, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';
import { pixBody, removeWorkDirs, workDir } from '../support/processes.js';
import { entryOf, own, raw, rig, startProxy, stopProxies, type ProxyProcess, type Rig } from '../support/proxy.js';
import { makeTestCa, type TestCa } from '../support/test-ca.js';
import { PLANTED } from '../support/planted-drifts.js';

afterAll(async () => {
  await stopProxies();
  removeWorkDirs();
});

const PROXY_CA = 'pinvoice proxy local CA';
const TEST_CA = 'pinvoice throwaway test CA';
/** The environment of a client run: no proxy variables of the machine's, nothing bypassing the proxy (NO_PROXY). */
const clientEnv = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...extra });

interface Curl {
  code: number;
  stdout: string;
  /** curl -v's trace: the CONNECT, the certificate, the headers */
  stderr: string;
}

function curl(args: string[], env: Record<string, string> = {}): Promise<Curl> {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '-v', '--max-time', '15', ...args], { env: clientEnv(env), encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as NodeJS.ErrnoException & { code?: unknown }).code) || 1 : 0, stdout, stderr });
    });
  });
}

/** The issuer's common name of the certificate curl -v showed (`issuer: CN=…; O=…`). */
const issuerSeen = (trace: string) => /^\* +issuer: (.+)$/m.exec(trace)?.[1] ?? `(no issuer in curl's trace: ${trace.slice(0, 2000)})`;

/** A CONNECT written by hand: the proxy's status line, headers and body (for one it answers itself). */
function rawConnect(proxyUrl: string, authority: string): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const socket = connectTcp({ host: hostname, port: Number(port) }, () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to CONNECT ${authority}: ${JSON.stringify(text)}`)));
  });
}

/**
 * A client written as an integration on Node 20 would (Node reads no HTTPS_PROXY itself): the proxy
 * from process.env.HTTPS_PROXY, a CONNECT to the host, then TLS to the host over that tunnel, the CA given.
 */
function tlsThroughProxy(env: { HTTPS_PROXY: string }, host: string, port: number, ca: string): Promise<{ socket: TLSSocket; entry: number }> {
  const proxy = new URL(env.HTTPS_PROXY);
  return new Promise((resolve, reject) => {
    const tcp = connectTcp({ host: proxy.hostname, port: Number(proxy.port) }, () => tcp.write(`CONNECT ${host}:${port} HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`));
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      tcp.off('data', onData);
      if (!/^HTTP\/1\.1 200 /.test(head)) return reject(new Error(`CONNECT ${host}:${port} answered ${head}`));
      const socket = connectTls({ socket: tcp, servername: /^[\d.]+$/.test(host) ? undefined : host, host, ca });
      socket.once('secureConnect', () => resolve({ socket, entry: Number(/pinvoice-proxy-entry: (\d+)/i.exec(head)?.[1]) }));
      socket.once('error', reject);
    };
    tcp.on('data', onData);
    tcp.once('error', reject);
  });
}

/** One HTTP/1.1 request written on a TLS socket; the answer's text, read to its close. */
function requestOn(socket: TLSSocket, lines: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.once('end', () => resolve(text));
    socket.once('error', reject);
    socket.write(lines);
  });
}

const sanOf = (cert: PeerCertificate) => cert.subjectaltname ?? '';
const create = JSON.stringify(pixBody({ payer: { name: 'Maria Hardcoded', email: 'maria@example.com', cpf_cnpj: '529.982.247-25', phone: '+5511999998888' } }));

describe.runIf(ENGINE === 'sqlite')('pinvoice proxy --forward in front of production over https', () => {
  let r: Rig;
  let caPath: string;
  let other: HttpsServer;
  let otherCa: TestCa;
  let otherPort: number;
  /** what the other host received, each request's body */
  const otherReceived: string[] = [];
  beforeAll(async () => {
    r = await rig(true, ['--forward', '--allow-writes']);
    const printed = await run(['proxy', 'ca', '--journal', r.journal], { env: r.env });
    expect(printed.code, printed.stderr).toBe(0);
    caPath = printed.stdout.trim();
    otherCa = makeTestCa();
    other = createHttpsServer(otherCa.leaf('valid'), (request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        otherReceived.push(body);
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`echo from the other host: ${body}`);
      });
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherPort = (other.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await r?.close();
    await new Promise((resolve) => other?.close(resolve));
    otherCa?.remove();
  });

  it('prints the CA beside the journal, the same path the start-up line names', () => {
    expect(caPath).toBe(join(`${r.journal}.ca`, 'ca.crt'));
    expect(r.proxy.stderr()).toContain(`forward proxy: HTTPS_PROXY=${r.proxy.url}; trust the CA at ${caPath} (pinvoice proxy ca --journal ${r.journal})`);
    expect(readFileSync(caPath, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });

  it('a create sent with curl --proxy to the gateway\'s own host name is forwarded, checked and journaled as a reverse-proxied one', async () => {
    // a create the contract refuses (its amount a string): its findings are the request's, whatever the answer
    const planted = PLANTED.find((item) => item.name.startsWith('request:'))!;
    const body = JSON.stringify(planted.body);
    r.gateway.plant({ method: 'POST', path: '/api/v2/invoices', answer: planted.answer });
    const before = r.gateway.requests.length;
    const headers = join(dirname(r.journal), 'curl-headers.txt');
    const got = await curl(['--proxy', r.proxy.url, '--cacert', caPath, '-D', headers, '-X', 'POST', '-H', `authorization: ${r.auth.authorization}`,
      '-H', 'content-type: application/json', '--data-binary', body, `${r.gateway.url}/api/v2/invoices`]);
    expect(got.code, got.stderr).toBe(0);
    expect(issuerSeen(got.stderr), 'the certificate curl saw for the gateway\'s host').toContain(`CN=${PROXY_CA}`);
    expect(r.gateway.requests.length, 'the stand-in received the create once').toBe(before + 1);
    expect(r.gateway.requests.at(-1)!.body).toBe(body);
    expect(got.stdout).toBe(r.gateway.answers.at(-1)!.body.toString());
    const entry = await entryOf(r.proxy, Number(/^pinvoice-proxy-entry: (\d+)/im.exec(readFileSync(headers, 'utf8'))?.[1]));
    expect(entry).toMatchObject({ direction: 'in', method: 'POST', path: '/api/v2/invoices', status: planted.answer.status, body: { total_price_cents: '1990' } });
    // the same create sent to the proxy as its base URL: the same findings
    r.gateway.plant({ method: 'POST', path: '/api/v2/invoices', answer: planted.answer });
    const direct = await raw(`${r.proxy.url}/api/v2/invoices`, { method: 'POST', headers: { ...r.auth, 'content-type': 'application/json' }, body });
    const shape = (findings: any[]) => findings.map(({ kind, severity, path, direction }) => ({ kind, severity, path, direction }));
    expect(shape(entry.findings)).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'request', path: '/total_price_cents' })]));
    expect(shape(entry.findings)).toEqual(shape((await entryOf(r.proxy, direct.entry)).findings));
  });

  it('a write through the tunnel is guarded as any other: without --allow-writes it is refused and never sent', async () => {
    const { dir, env } = workDir('pinvoice-forward-guard-');
    const guarded = await startProxy(['--to', r.gateway.url, '--port', '0', '--journal', join(dir, 'guarded.journal'), '--forward'], { ...env, NODE_EXTRA_CA_CERTS: r.ca!.caCertPath });
    try {
      const ca = (await run(['proxy', 'ca', '--journal', join(dir, 'guarded.journal')], { env })).stdout.trim();
      const before = r.gateway.requests.length;
      const got = await curl(['--proxy', guarded.url, '--cacert', ca, '-X', 'POST', '-H', 'content-type: application/json', '--data-binary', create, `${r.gateway.url}/api/v2/invoices`]);
      expect(got.code, got.stderr).toBe(0);
      expect(JSON.parse(got.stdout).error).toBe('proxy_write_refused');
      expect(r.gateway.requests.length).toBe(before);
    } finally {
      await guarded.stop();
    }
  });

  it('another host is tunnelled untouched: its own certificate, bytes both ways, journaled as a tunnel without them', async () => {
    const marker = `tunnel-body-${Date.now()}`;
    const got = await curl(['--proxy', r.proxy.url, '--cacert', otherCa.caCertPath, '--data-binary', marker, `https://localhost:${otherPort}/echo`]);
    expect(got.code, got.stderr).toBe(0);
    expect(issuerSeen(got.stderr), 'the certificate curl saw for the other host').toContain(`CN=${TEST_CA}`);
    expect(got.stdout).toBe(`echo from the other host: ${marker}`);
    expect(otherReceived).toContain(marker);
    const id = Number(/^< pinvoice-proxy-entry: (\d+)/im.exec(got.stderr)?.[1]);
    const entry = await entryOf(r.proxy, id);
    expect(entry).toMatchObject({ direction: 'tunnel', method: 'CONNECT', host: 'localhost', port: otherPort, path: `localhost:${otherPort}`, status: 200, body: null, response_body: null });
    const listed = await own(r.proxy, '/requests?direction=tunnel&limit=500');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((item: any) => item.id)).toContain(id);
    expect(listed.text).not.toContain(marker);
    for (const file of readdirSync(dirname(r.journal)).filter((name) => name.startsWith('production.db'))) {
      const path = join(dirname(r.journal), file);
      if (statSync(path).isFile()) expect(readFileSync(path).includes(marker), `${file} holds the tunnel's bytes`).toBe(false);
    }
  });

  it('a tunnel that cannot open is a 502 saying why, journaled', async () => {
    const answer = await rawConnect(r.proxy.url, '127.0.0.1:1');
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body)).toEqual({ error: 'tunnel_unreachable', message: 'cannot open a tunnel to 127.0.0.1:1: connection refused' });
    const entry = await entryOf(r.proxy, Number(/pinvoice-proxy-entry: (\d+)/i.exec(answer.head)?.[1]));
    expect(entry).toMatchObject({ direction: 'tunnel', host: '127.0.0.1', port: 1, status: 502, error: 'cannot open a tunnel to 127.0.0.1:1: connection refused' });
    const portless = await rawConnect(r.proxy.url, 'localhost');
    expect(portless.status).toBe(400);
    expect(JSON.parse(portless.body)).toEqual({ error: 'proxy_bad_connect', message: 'CONNECT "localhost": must name a host and a port, such as localhost:' + new URL(r.gateway.url).port });
  });

  it('a Node client that reads HTTPS_PROXY gets a certificate for the host as it named it', async () => {
    const ca = readFileSync(caPath, 'utf8');
    const { port } = new URL(r.gateway.url);
    const { socket } = await tlsThroughProxy({ HTTPS_PROXY: r.proxy.url }, 'localhost', Number(port), ca);
    expect(socket.getPeerCertificate().issuer.CN).toBe(PROXY_CA);
    expect(sanOf(socket.getPeerCertificate())).toBe('DNS:localhost');
    const answer = await requestOn(socket, `GET /api/v2/invoices?id=1 HTTP/1.1\r\nHost: localhost:${port}\r\nAuthorization: ${r.auth.authorization}\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(answer).toMatch(/\r\npinvoice-proxy-entry: \d+\r\n/i);
  });

  it('logs list --journal shows a tunnel entry as one', async () => {
    const listed = await run(['logs', 'list', '--journal', r.journal, '--direction', 'tunnel'], { env: r.env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('⇄ tunnel CONNECT');
    expect(listed.stdout).toContain(`localhost:${otherPort}`);
    expect(listed.stdout).not.toContain('→');
  });

  it('plain HTTP in absolute form to another host is refused 403, naming HTTPS_PROXY', async () => {
    const got = await curl(['--proxy', r.proxy.url, 'http://example.invalid/path']);
    expect(got.code, got.stderr).toBe(0);
    const body = JSON.parse(got.stdout);
    expect(body.error).toBe('proxy_host_refused');
    expect(body.message).toContain('HTTPS_PROXY');
  });

  it('PHP\'s curl, given HTTPS_PROXY and CURLOPT_CAINFO as the CartHero storefront would, creates through the proxy', async (context) => {
    let modules = '';
    try {
      modules = execFileSync('php', ['-m'], { encoding: 'utf8' });
    } catch {
      if (process.env.CI) throw new Error('php is missing on CI (.ci/run installs php-cli and php-curl)');
      return context.skip('php is not installed');
    }
    if (!/^curl$/m.test(modules)) {
      if (process.env.CI) throw new Error('PHP has no curl extension on CI (.ci/run installs php-curl)');
      return context.skip('PHP has no curl extension (apt-get install php-curl)');
    }
    const script = join(dirname(r.journal), 'checkout.php');
    // the gateway's URL in the code, as a storefront has it; nothing about the proxy but the CA
    writeFileSync(script, `<?php
$ch = curl_init(getenv('GATEWAY_URL') . '/api/v2/invoices');
curl_setopt_array($ch, [
  CURLOPT_POST => true,
  CURLOPT_POSTFIELDS => getenv('BODY'),
  CURLOPT_HTTPHEADER => ['Content-Type: application/json', 'Authorization: ' . getenv('AUTH')],
  CURLOPT_RETURNTRANSFER => true,
  CURLOPT_HEADER => true,
  CURLOPT_CAINFO => getenv('PROXY_CA'),
]);
$answer = curl_exec($ch);
if ($answer === false) { fwrite(STDERR, curl_error($ch)); exit(1); }
echo json_encode(['status' => curl_getinfo($ch, CURLINFO_RESPONSE_CODE), 'answer' => $answer]);
`);
    const before = r.gateway.requests.length;
    const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('php', [script], { env: clientEnv({ HTTPS_PROXY: r.proxy.url, GATEWAY_URL: r.gateway.url, BODY: create, AUTH: r.auth.authorization!, PROXY_CA: caPath }), encoding: 'utf8' },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }));
    });
    expect(out.code, out.stderr).toBe(0);
    const { status, answer } = JSON.parse(out.stdout);
    expect(status).toBe(r.gateway.answers.at(-1)!.status);
    expect(r.gateway.requests.length, 'the stand-in received the create').toBe(before + 1);
    const entry = await entryOf(r.proxy, Number(/\r\npinvoice-proxy-entry: (\d+)\r\n/i.exec(answer)?.[1]));
    expect(entry).toMatchObject({ direction: 'in', method: 'POST', path: '/api/v2/invoices' });
    expect(entry.body.payer.name).toBe('Maria Hardcoded');
  });
});

describe.runIf(ENGINE === 'sqlite')('pinvoice proxy --forward: an origin named by IP address, an http origin, and none', () => {
  let r: Rig;
  let byIp: ProxyProcess;
  let plain: Rig;
  beforeAll(async () => {
    [r, plain] = await Promise.all([rig(true), rig(false, ['--forward'])]);
    const { port } = new URL(r.gateway.url);
    const { dir, env } = workDir('pinvoice-forward-ip-');
    byIp = await startProxy(['--to', `https://127.0.0.1:${port}`, '--port', '0', '--journal', join(dir, 'ip.journal'), '--forward'], { ...env, NODE_EXTRA_CA_CERTS: r.ca!.caCertPath });
  });
  afterAll(async () => {
    await byIp?.stop();
    await Promise.all([r?.close(), plain?.close()]);
  });

  it('an IP address is named as one in the certificate (an iPAddress)', async () => {
    const ca = readFileSync(/trust the CA at (\S+)/.exec(byIp.stderr())![1]!, 'utf8');
    const { port } = new URL(r.gateway.url);
    const { socket } = await tlsThroughProxy({ HTTPS_PROXY: byIp.url }, '127.0.0.1', Number(port), ca);
    expect(sanOf(socket.getPeerCertificate())).toBe('IP Address:127.0.0.1');
    socket.destroy();
  });

  it('stops on SIGTERM at once, a tunnel and a kept-alive connection through its CA still open', async () => {
    const ca = readFileSync(/trust the CA at (\S+)/.exec(byIp.stderr())![1]!, 'utf8');
    const port = Number(new URL(r.gateway.url).port);
    // a tunnel: the same server by its other name, which is not the origin's
    const tunnelled = await tlsThroughProxy({ HTTPS_PROXY: byIp.url }, 'localhost', port, readFileSync(r.ca!.caCertPath, 'utf8'));
    expect(tunnelled.socket.getPeerCertificate().issuer.CN).toBe(TEST_CA);
    const intercepted = await tlsThroughProxy({ HTTPS_PROXY: byIp.url }, '127.0.0.1', port, ca);
    const answer = new Promise<string>((resolve) => {
      let text = '';
      intercepted.socket.setEncoding('utf8');
      intercepted.socket.on('data', (chunk) => {
        text += chunk;
        if (text.includes('\r\n\r\n')) resolve(text);
      });
    });
    intercepted.socket.write(`GET /api/v2/company HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${r.auth.authorization}\r\n\r\n`);
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
    const started = Date.now();
    expect(await byIp.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    tunnelled.socket.destroy();
    intercepted.socket.destroy();
  });

  it('without --forward a CONNECT is refused 405, naming --forward', async () => {
    const answer = await rawConnect(r.proxy.url, new URL(r.gateway.url).host);
    expect(answer.status).toBe(405);
    const body = JSON.parse(answer.body);
    expect(body.error).toBe('proxy_forward_off');
    expect(body.message).toContain('--forward');
  });

  it('an http origin: plain HTTP in absolute form to it is forwarded and journaled', async () => {
    const got = await curl(['--proxy', plain.proxy.url, '-D', '-', '-H', `authorization: ${plain.auth.authorization}`, `${plain.gateway.url}/api/v2/company`]);
    expect(got.code, got.stderr).toBe(0);
    expect(plain.gateway.requests.at(-1)!.url).toBe('/api/v2/company');
    const entry = await entryOf(plain.proxy, Number(/^pinvoice-proxy-entry: (\d+)/im.exec(got.stdout)?.[1]));
    expect(entry).toMatchObject({ direction: 'in', method: 'GET', path: '/api/v2/company' });
  });

  it('pinvoice proxy ca makes the CA when absent, owner-only under umask 000, and needs a journal named', async () => {
    const { dir, env } = workDir('pinvoice-forward-ca-');
    const journal = join(dir, 'journals', 'made.journal');
    const made = await run(['proxy', 'ca', '--journal', journal], { env: { ...env, NODE_OPTIONS: '--import=data:text/javascript,process.umask(0)' } });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toBe(`${join(`${journal}.ca`, 'ca.crt')}\n`);
    const folder = `${journal}.ca`;
    expect((statSync(folder).mode & 0o777).toString(8)).toBe('700');
    for (const file of readdirSync(folder)) expect((statSync(join(folder, file)).mode & 0o777).toString(8), file).toBe('600');
    expect(readdirSync(folder).sort()).toEqual(['ca.crt', 'ca.json']);
    expect(made.stdout + made.stderr).not.toContain('PRIVATE KEY');
    const again = await run(['proxy', 'ca', '--journal', journal], { env });
    expect(again.stdout).toBe(made.stdout);
    const byOrigin = await run(['proxy', 'ca', '--to', 'https://api.gateway.example'], { env });
    expect(byOrigin.code, byOrigin.stderr).toBe(0);
    expect(byOrigin.stdout.trim()).toBe(join(env.PINVOICE_DATA_DIR!, 'proxy', 'api.gateway.example.journal.ca', 'ca.crt'));
    const none = await run(['proxy', 'ca'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--journal FILE, or --to ORIGIN');
    const noTo = await run(['proxy', '--port', '0'], { env });
    expect(noTo.code).toBe(2);
    expect(noTo.stderr).toContain('--to is required');
  });
});
