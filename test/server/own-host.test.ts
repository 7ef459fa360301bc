// The server's own names (src/server/own-host.ts), on each engine: a forged Host gets no sign-in link,
// a rebound page (its Host and its Origin both the attacker's, which agree) can neither act on a
// checkout page nor sign in to the dashboard, names given by allowedHosts (`serve --allowed-host`) are
// let in, links name the Host the request came by, and the API answers any Host. Requests are raw
// HTTP: fetch cannot set a Host.
import { afterEach, describe, expect, it } from 'vitest';
import { create } from '../support/charges.js';
import { askLink as link, cookieOf, FORM, rawRequest, type RawReply } from '../support/raw-http.js';
import { request, startTestServer, validPix, type TestServer } from '../support/server.js';

const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function server(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(options);
  open.push(s);
  return s;
}

const port = (s: TestServer) => new URL(s.url).port;

/** 403, saying which name was refused and the flag that would allow it. */
function refusedNaming(reply: RawReply, name: string | undefined) {
  expect(reply.status, reply.text).toBe(403);
  expect(reply.text).toContain(name === undefined ? 'is not a host name with an optional port' : `start it with --allowed-host ${name}`);
}

describe('a Host that is not one of the server’s names', () => {
  it('gets no sign-in link: a path and a fragment in the Host, or another name, are refused with 403 naming --allowed-host', async () => {
    const s = await server();
    const forged = await link(s, 'evil.example/phish#');
    refusedNaming(forged, undefined);
    expect(JSON.parse(forged.text).error).toBe('forbidden');
    refusedNaming(await link(s, 'evil.example:1'), 'evil.example');
    for (const host of ['user@127.0.0.1', '127.0.0.1 x', 'localhost:99999', '[::1', 'a..b', '999.1.1.1']) expect((await link(s, host)).status, host).toBe(403);
  });

  it('rebinding: with its own Origin it can neither expire a charge through its checkout page nor sign in; the pages are refused too', async () => {
    const s = await server();
    const charge = await create(s, validPix());
    const checkout = `${s.url}/checkout/${charge.invoice.token_checkout}`;
    const rebound = { host: 'evil.example:1', headers: { origin: 'http://evil.example:1', ...FORM }, method: 'POST', body: '' };
    refusedNaming(await rawRequest(`${checkout}/sandbox/expire`, rebound), 'evil.example');
    const asScript = await rawRequest(`${checkout}/sandbox/expire`, { ...rebound, headers: { ...rebound.headers, accept: 'application/json' } });
    expect([asScript.status, JSON.parse(asScript.text).error]).toEqual([403, 'forbidden']);
    expect((await request(s, 'GET', `/api/v2/invoices/${charge.id}`)).body.status).toBe('pending');

    const signIn = await rawRequest(`${s.url}/dashboard/sign-in`, { ...rebound, body: `token=${s.token}` });
    refusedNaming(signIn, 'evil.example');
    expect(signIn.headers['set-cookie']).toBeUndefined();
    for (const path of ['/dashboard', '/dashboard/requests', '/dashboard/assets/dashboard.js', `/checkout/${charge.invoice.token_checkout}`, `/checkout/${charge.invoice.token_checkout}/live`, '/checkout/assets/checkout.js']) {
      const page = await rawRequest(`${s.url}${path}`, { host: 'evil.example:1' });
      expect([path, page.status, page.headers['content-type']]).toEqual([path, 403, 'text/html; charset=utf-8']);
    }
  });

  it('the API answers it: its bearer token guards it', async () => {
    const s = await server();
    const answer = await rawRequest(`${s.url}/api/v2/company`, { host: 'evil.example:1', headers: { authorization: `Bearer ${s.token}` } });
    expect(answer.status, answer.text).toBe(200);
    expect((await rawRequest(`${s.url}/health`, { host: 'evil.example/x#' })).status).toBe(200);
  });
});

describe('the server’s own names', () => {
  it('without publicHost, a link names the Host it was asked by: loopback by address or by name', async () => {
    const s = await server();
    for (const host of [`127.0.0.1:${port(s)}`, `localhost:${port(s)}`, `LocalHost:${port(s)}`, `app.localhost:${port(s)}`, `[::1]:${port(s)}`]) {
      const answer = await link(s, host);
      expect(answer.status, answer.text).toBe(200);
      expect(JSON.parse(answer.text).url).toMatch(new RegExp(`^http://${host.toLowerCase().replace(/[[\].]/g, '\\$&')}/dashboard/sign-in\\?code=[A-Za-z0-9_-]{43}$`));
    }
  });

  it('allowedHosts ["pinvoice"] lets Host: pinvoice:PORT in: its link, its checkout form and its sign-in; other names still not', async () => {
    const s = await server({ allowedHosts: ['pinvoice', '.tunnel.test'] });
    const host = `pinvoice:${port(s)}`;
    const answer = await link(s, host);
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text).url).toMatch(new RegExp(`^http://pinvoice:${port(s)}/dashboard/sign-in\\?code=`));
    expect((await link(s, `abc.tunnel.test`)).status).toBe(200);
    expect((await link(s, `tunnel.test:443`)).status).toBe(200);
    refusedNaming(await link(s, `pinvoice.evil.example:${port(s)}`), 'pinvoice.evil.example');

    const charge = await create(s, validPix());
    const own = { host, headers: { origin: `http://${host}`, ...FORM }, method: 'POST', body: '' };
    const expired = await rawRequest(`${s.url}/checkout/${charge.invoice.token_checkout}/sandbox/expire`, own);
    expect([expired.status, expired.headers.location]).toEqual([303, `/checkout/${charge.invoice.token_checkout}`]);
    expect((await request(s, 'GET', `/api/v2/invoices/${charge.id}`)).body.status).toBe('expired');
    const signIn = await rawRequest(`${s.url}/dashboard/sign-in`, { ...own, body: `token=${s.token}` });
    expect([signIn.status, signIn.headers.location]).toEqual([303, '/dashboard/requests']);
    expect(cookieOf(signIn)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('publicHost is one of its names, and every link names it, whatever allowed Host asked', async () => {
    const s = await server({ publicHost: 'pix.example.test:8443' });
    const answer = await link(s, 'pix.example.test');
    expect(answer.status, answer.text).toBe(200);
    for (const asked of [answer, await link(s, `localhost:${port(s)}`)]) {
      expect(JSON.parse(asked.text).url).toMatch(/^http:\/\/pix\.example\.test:8443\/dashboard\/sign-in\?code=/);
    }
    expect(s.app.ownHosts.origin(`127.0.0.1:${port(s)}`)).toBe('http://pix.example.test:8443');
    expect(s.app.ownHosts.origin()).toBe('http://pix.example.test:8443');
    expect(s.app.ownHosts.origin('evil.example')).toBe('http://pix.example.test:8443');
  });

  it('without publicHost, a link made without a request names the listening address', async () => {
    const s = await server();
    expect(s.app.ownHosts.origin()).toBe(s.url);
    expect(s.app.ownHosts.origin('evil.example:1')).toBe(s.url);
  });
});
