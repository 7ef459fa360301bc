// A sign-in in a browser that has a dashboard session, on each engine: redeeming a link (or pasting a
// token) ends the session the browser's cookie named, so its cookie answers as signed out; a spent
// link leaves it as it was.
import { afterEach, describe, expect, it } from 'vitest';
import { askLink as link, cookieOf, FORM, rawRequest } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function server(): Promise<TestServer> {
  const s = await startTestServer();
  open.push(s);
  return s;
}

const port = (s: TestServer) => new URL(s.url).port;

describe('a sign-in in a browser that has a session', () => {
  const signInBy = async (s: TestServer, cookie?: string) => {
    const { url } = JSON.parse((await link(s, `127.0.0.1:${port(s)}`)).text) as { url: string };
    return rawRequest(url, { host: `127.0.0.1:${port(s)}`, headers: cookie === undefined ? {} : { cookie: `pinvoice_dashboard=${cookie}` } });
  };
  const page = (s: TestServer, cookie: string) => rawRequest(`${s.url}/dashboard/requests`, { host: `127.0.0.1:${port(s)}`, headers: { cookie: `pinvoice_dashboard=${cookie}` } });

  it('a second link redeemed ends the first session: its cookie answers as signed out', async () => {
    const s = await server();
    const first = cookieOf(await signInBy(s)) ?? '';
    expect((await page(s, first)).status).toBe(200);
    const second = cookieOf(await signInBy(s, first)) ?? '';
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    const old = await page(s, first);
    expect([old.status, old.headers.location]).toEqual([303, '/dashboard']);
    expect((await page(s, second)).status).toBe(200);
  });

  it('a spent link leaves the session as it was; a token pasted in replaces it too', async () => {
    const s = await server();
    const first = cookieOf(await signInBy(s)) ?? '';
    const spent = await rawRequest(`${s.url}/dashboard/sign-in?code=${'x'.repeat(43)}`, { host: `127.0.0.1:${port(s)}`, headers: { cookie: `pinvoice_dashboard=${first}` } });
    expect(spent.status).toBe(401);
    expect((await page(s, first)).status).toBe(200);
    const pasted = await rawRequest(`${s.url}/dashboard/sign-in`, { method: 'POST', host: `127.0.0.1:${port(s)}`, headers: { ...FORM, cookie: `pinvoice_dashboard=${first}` }, body: `token=${s.token}` });
    expect(pasted.status).toBe(303);
    expect((await page(s, first)).status).toBe(303);
    expect((await page(s, cookieOf(pasted) ?? '')).status).toBe(200);
  });
});
