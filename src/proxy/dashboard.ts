// The proxy's dashboard, `/_pinvoice/dashboard`: serve's requests view and entry page (render.ts and
// the routes' shared parts, at this base) over the proxy's journal, each entry with its findings. No
// charges or company: the proxy has none. Sign-in by the one-time link printed at start-up or the
// inspector token pasted, then a session cookie (sign-in.ts, in memory). A fastify app of its own,
// made on the first dashboard request (api.ts imports this module then): nothing here is loaded
// otherwise, and nothing is on the forward path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { DASHBOARD_PATH } from '../api/proxy.js';
import { html, PAGE_HEADERS, sameOrigin } from '../server/html.js';
import { entryPage, messagePage, signInPage, type Site, type Viewer } from '../server/dashboard/render.js';
import { back, registerPageBasics, requestsView, sendPage } from '../server/dashboard/routes.js';
import { cookieValue, COOKIE, csrfMatches, csrfOf, sessionCookie } from '../server/dashboard/session.js';
import { createStreams, getJournalEntry, type JournalContext } from '../server/journal/handlers.js';
import type { ProxySignIns } from './sign-in.js';

export interface ProxyDashboardOptions {
  ctx: JournalContext;
  company: { id: number };
  signIns: ProxySignIns;
  /** the gateway's origin, or null when replaying `replay` */
  origin: string | null;
  replay?: string | undefined;
  log: (line: string) => void;
}

export interface ProxyDashboard {
  routing(request: IncomingMessage, response: ServerResponse): void;
  close(): Promise<void>;
}

const base = DASHBOARD_PATH;
const FORM_LIMIT = 16 * 1024;

export async function startDashboard(options: ProxyDashboardOptions): Promise<ProxyDashboard> {
  const { ctx, company, signIns } = options;
  const where = options.origin ?? `replaying ${options.replay ?? 'a recording'}`;
  const site: Site = {
    base, name: `pinvoice proxy ${where}`, tagline: `proxy · ${where}`, tabs: ['requests'],
    directions: [{ value: 'in', label: 'in: through the proxy' }, { value: 'tunnel', label: 'tunnel: --forward' }], proxy: true,
    signInHelp: html`Open the one-time link <code>pinvoice proxy</code> printed when it started, or paste its inspector token here.`,
    secretLabel: 'Inspector token',
  };
  const now = () => Date.now();
  const streams = createStreams();
  const app = Fastify({ bodyLimit: FORM_LIMIT });
  registerPageBasics(app, site, { bodyBytes: FORM_LIMIT }, (error) => options.log(`proxy dashboard: ${(error as Error).message}`));

  const sessionId = (request: FastifyRequest) => cookieValue(request.headers.cookie, COOKIE);
  const viewerOf = (request: FastifyRequest): Viewer | undefined => {
    const id = sessionId(request);
    return id !== undefined && signIns.isOpen(id, now()) ? { company: where, token: 'inspector', readOnly: false, csrf: csrfOf(id), site } : undefined;
  };
  const cookie = (id: string | undefined) => sessionCookie(id, false, base);
  /** A page that needs a session: the viewer, or back to the sign-in page. */
  const reader = (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = viewerOf(request);
    if (!viewer) void back(reply, base);
    return viewer;
  };
  const signedIn = (reply: FastifyReply, request: FastifyRequest, id: string) => {
    signIns.close(sessionId(request)); // a new sign-in in a browser replaces the one it had
    return back(reply.header('set-cookie', cookie(id)), `${base}/requests`);
  };

  app.get(base, async (request, reply) => (viewerOf(request) ? back(reply, `${base}/requests`) : sendPage(reply, signInPage(undefined, site))));

  app.get(`${base}/sign-in`, async (request, reply) => {
    const code = (request.query as Record<string, unknown>).code;
    const id = typeof code === 'string' ? signIns.redeem(code, now()) : undefined;
    if (!id) return sendPage(reply, signInPage('This sign-in link was used already or has expired: paste the inspector token the proxy printed, or restart the proxy for a new link.', site), 401);
    // the code leaves the address bar with this redirect; it is spent either way
    return signedIn(reply, request, id);
  });

  app.post(`${base}/sign-in`, async (request, reply) => {
    if (!sameOrigin(request)) return sendPage(reply, signInPage('This form did not come from this dashboard.', site), 403);
    const token = ((request.body ?? {}) as Record<string, string>).token?.trim() ?? '';
    const id = token === '' ? undefined : signIns.signInWithToken(token, now());
    if (!id) return sendPage(reply, signInPage('That is not this proxy\'s inspector token (a new one is made each time the proxy starts).', site), 401);
    return signedIn(reply, request, id);
  });

  app.post(`${base}/sign-out`, async (request, reply) => {
    const viewer = viewerOf(request);
    const csrf = ((request.body ?? {}) as Record<string, string>).csrf;
    if (viewer && !(sameOrigin(request) && csrfMatches(sessionId(request) as string, csrf))) {
      return sendPage(reply, messagePage('Refused', 'This form did not come from this dashboard: you are still signed in.', viewer), 403);
    }
    signIns.close(sessionId(request));
    return back(reply.header('set-cookie', cookie(undefined)), base);
  });

  app.get(`${base}/stream`, async (request, reply) => {
    if (!viewerOf(request)) return sendPage(reply, messagePage('Signed out', 'Sign in again.', undefined, site), 401);
    await streams.stream(ctx, company, request, reply, PAGE_HEADERS);
    return reply;
  });

  app.get(`${base}/requests`, async (request, reply) => {
    const viewer = reader(request, reply);
    if (!viewer) return reply;
    return sendPage(reply, await requestsView(viewer, ctx, company, request));
  });

  app.get(`${base}/requests/:id`, async (request, reply) => {
    const viewer = reader(request, reply);
    if (!viewer) return reply;
    return sendPage(reply, entryPage(viewer, await getJournalEntry(ctx, company, (request.params as { id: string }).id)));
  });

  await app.ready();
  return {
    routing: (request, response) => app.routing(request, response),
    async close() {
      streams.closeAll();
      await app.close();
    },
  };
}
