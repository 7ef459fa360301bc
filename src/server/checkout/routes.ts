// The payer's checkout page, `GET /checkout/{token_checkout}` (contract, Operations), and what it uses:
// its own stylesheet and script (no external resource: it works offline), the boleto's PDF, the
// 3-D Secure challenge and the sandbox controls (forms that work without JavaScript), and a stream of
// server-sent events that tells the page when the charge changed, however it changed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PublicInvoice } from '../../api/schemas.js';
import { SAMPLE_3DS_VALUES } from '../../domain/card-outcome.js';
import type { SandboxAction } from '../../domain/status.js';
import { ApiError } from '../errors.js';
import type { ServerContext } from '../invoices/context.js';
import { complete3ds, publicCharge, sandboxAction } from '../invoices/lifecycle.js';
import { companyContext } from '../sandbox/company-time.js';
import { boletoPdf } from './boleto-pdf.js';
import { boletoBarcodeSvg, pixQrSvg } from './codes.js';
import { PAGE_HEADERS, sameOrigin } from '../html.js';
import { renderCheckout, renderMain, renderNotFound, renderRefused, STATUS_LABELS, type CheckoutExtras } from './render.js';

/** Where the stylesheet and the script are: `assets/checkout/` of the package (beside src/ and dist/). */
const ASSETS_DIR = new URL('../../../assets/checkout/', import.meta.url);
const ASSETS = {
  'checkout.css': 'text/css; charset=utf-8',
  'checkout.js': 'text/javascript; charset=utf-8',
} as const;

/** Tokens are 32 letters and digits; anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9]{16,64}$/;
/** Open live streams at most (each holds a connection); more are refused with 503. */
const MAX_STREAMS = 1000;
/** A checkout page's share of them (a payer's tabs and devices): one client with one token cannot take all. */
export const MAX_STREAMS_PER_TOKEN = 20;
const HEARTBEAT_MS = 15_000;

const THREE_DS_FAILING = { ...SAMPLE_3DS_VALUES, eci: '07' };

interface Stream {
  token: string;
  reply: FastifyReply;
  lastHash: string;
}

/** A charge as its page shows it: the payer's view, and how far its company's sandbox clock runs ahead of real time. */
type PageCharge = PublicInvoice & { clockOffsetMs: number };

export function registerCheckout(app: FastifyInstance, ctx: ServerContext, logError: (error: unknown) => void): void {
  const assets = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readFileSync(new URL(name, ASSETS_DIR)) }]));
  const streams = new Set<Stream>();
  /** open streams per checkout token (and those being opened) */
  const perToken = new Map<string, number>();
  const release = (token: string): void => {
    const left = (perToken.get(token) ?? 1) - 1;
    if (left > 0) perToken.set(token, left);
    else perToken.delete(token);
  };

  async function view(token: string): Promise<PageCharge | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    try {
      const { view: charge, clockOffsetMs } = await publicCharge(ctx, token);
      return { ...charge, clockOffsetMs };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  async function extrasFor(token: string, charge: PageCharge): Promise<CheckoutExtras> {
    const pending = charge.status === 'pending';
    return {
      base: `/checkout/${token}`,
      sandbox: true,
      clockOffsetMs: charge.clockOffsetMs,
      qrSvg: pending && charge.pix ? await pixQrSvg(charge.pix.qrCode) : undefined,
      barcodeSvg: pending && charge.boleto ? await boletoBarcodeSvg(charge.boleto.barcode) : undefined,
    };
  }

  const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token;
  const notFoundPage = (reply: FastifyReply) => reply.code(404).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(renderNotFound());

  app.get('/checkout/assets/:name', async (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return notFoundPage(reply);
    return reply.headers({ ...PAGE_HEADERS, 'cache-control': 'public, max-age=300' }).type(asset.type).send(asset.body);
  });

  app.get('/checkout/:token', async (request, reply) => {
    const token = tokenOf(request);
    const charge = await view(token);
    if (!charge) return notFoundPage(reply);
    const extras = await extrasFor(token, charge);
    return reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(renderCheckout(charge, extras, liveData(charge, extras).hash));
  });

  app.get('/checkout/:token/boleto.pdf', async (request, reply) => {
    const charge = await view(tokenOf(request));
    if (!charge?.boleto) return notFoundPage(reply);
    const pdf = await boletoPdf({ ...charge, boleto: charge.boleto });
    return reply.headers({ ...PAGE_HEADERS, 'content-disposition': `attachment; filename="boleto-${charge.secureId}.pdf"` }).type('application/pdf').send(pdf);
  });

  // The page's controls: forms (no JavaScript: the answer sends the browser back to the page) or fetch
  // (the script asks for JSON; the page then changes by its live stream, as for any other change).
  // A form of another site cannot post here: a POST whose Origin is not this server is refused.
  app.register(async (scope) => {
    // forms post an empty urlencoded body: accepted, not read
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));

    async function act(request: FastifyRequest, reply: FastifyReply, run: (charge: PublicInvoice & { companyId: number; id: number }) => Promise<unknown>) {
      const token = tokenOf(request);
      if (!sameOrigin(request)) {
        const refused = new ApiError(403, 'forbidden', 'The checkout page acts only on requests from its own pages.');
        if (wantsJson(request)) throw refused;
        return reply.code(403).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(renderRefused());
      }
      const row = TOKEN_SHAPE.test(token) ? await ctx.reads.invoices.byCheckoutToken(token) : undefined;
      const charge = row && (await view(token));
      if (!row || !charge) return notFoundPage(reply);
      try {
        await run({ ...charge, companyId: row.company_id, id: row.id });
      } catch (error) {
        // a control that no longer applies (the charge changed meanwhile): the page shows what it is now
        if (!(error instanceof ApiError && error.status === 409)) throw error;
        if (wantsJson(request)) return reply.code(409).send(error.body());
      }
      if (wantsJson(request)) return reply.send({ status: (await view(token))?.status });
      return reply.code(303).header('location', `/checkout/${token}`).send();
    }

    async function companyOf(id: number) {
      const company = await ctx.reads.companies.get(id);
      if (!company) throw new Error(`company ${id} of a charge is gone`);
      return company;
    }

    scope.post('/checkout/:token/sandbox/:action', async (request, reply) => {
      const action = (request.params as { action: string }).action;
      if (!['pay', 'expire', 'cancel'].includes(action)) return notFoundPage(reply);
      return act(request, reply, async (charge) => {
        const company = await companyOf(charge.companyId);
        return sandboxAction(companyContext(ctx, company), company, String(charge.id), action as SandboxAction);
      });
    });

    scope.post('/checkout/:token/3ds/:outcome', async (request, reply) => {
      const outcome = (request.params as { outcome: string }).outcome;
      if (outcome !== 'authenticate' && outcome !== 'fail') return notFoundPage(reply);
      return act(request, reply, async (charge) => {
        const company = await companyOf(charge.companyId);
        return complete3ds(companyContext(ctx, company), company, String(charge.id), outcome === 'authenticate' ? SAMPLE_3DS_VALUES : THREE_DS_FAILING);
      });
    });
  });

  // ---- live updates -------------------------------------------------------------------------------

  /** The changing part of the page as the stream sends it, and its fingerprint. */
  async function liveUpdate(token: string): Promise<{ hash: string; data: string } | undefined> {
    const charge = await view(token);
    return charge && liveData(charge, await extrasFor(token, charge));
  }

  async function refresh(stream: Stream): Promise<void> {
    const update = await liveUpdate(stream.token);
    if (!update || update.hash === stream.lastHash || !streams.has(stream)) return;
    stream.lastHash = update.hash;
    stream.reply.raw.write(`event: update\ndata: ${update.data}\n\n`);
  }

  // Every change of a charge records an event in its transaction: after such a commit of this process
  // (and, on PostgreSQL, a commit on any node that made a postback due), each open page looks at its
  // charge again. For changes made by other processes, and for expiry by time, pages also look every second.
  let pending: Promise<void> | undefined;
  let again = false;
  function refreshAll(): void {
    if (streams.size === 0) return;
    if (pending) {
      again = true;
      return;
    }
    pending = Promise.all([...streams].map((stream) => refresh(stream).catch(logError))).then(() => {
      pending = undefined;
      if (again) {
        again = false;
        refreshAll();
      }
    });
  }
  let unsubscribe = () => undefined as void;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    const stops = [ctx.store.onChargesChanged(refreshAll), ctx.store.onEventsRecorded(refreshAll)];
    unsubscribe = () => stops.forEach((stop) => stop());
    timer = setInterval(refreshAll, 1000);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    unsubscribe();
    clearInterval(timer);
    for (const stream of streams) stream.reply.raw.end();
    streams.clear();
    perToken.clear();
  });

  app.get('/checkout/:token/live', async (request, reply) => {
    const token = tokenOf(request);
    // the token's slot is taken before anything is awaited (streams opened at once count each other), and
    // before the page is rendered: the greedy client costs nothing
    const held = perToken.get(token) ?? 0;
    if (held >= MAX_STREAMS_PER_TOKEN) {
      throw new ApiError(429, 'rate_limited', `At most ${MAX_STREAMS_PER_TOKEN} live streams of one checkout page at once; close one first (the page still works when reloaded).`, undefined, { 'Retry-After': '5' });
    }
    perToken.set(token, held + 1);
    const first = await liveUpdate(token).catch((error: unknown) => {
      release(token);
      throw error;
    });
    if (!first) {
      release(token);
      return notFoundPage(reply);
    }
    if (streams.size >= MAX_STREAMS) {
      release(token);
      throw new ApiError(503, 'server_busy', 'Too many open checkout pages; the page still works when reloaded.');
    }
    reply.hijack();
    reply.raw.writeHead(200, {
      ...PAGE_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    // the state now, in case it changed between the page and this stream; then only changes
    const stream: Stream = { token, reply, lastHash: first.hash };
    reply.raw.write(`retry: 2000\nevent: update\ndata: ${first.data}\n\n`);
    streams.add(stream);
    const heartbeat = setInterval(() => reply.raw.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    request.raw.socket.setTimeout(0);
    reply.raw.on('close', () => {
      clearInterval(heartbeat);
      if (streams.delete(stream)) release(token); // (else ended by preClose, which forgets them all)
    });
  });
}

/** What the live stream sends for a charge: the changing part of the page, its status, and a fingerprint of both. */
function liveData(charge: PublicInvoice, extras: CheckoutExtras): { hash: string; data: string } {
  const main = renderMain(charge, extras).text;
  const hash = createHash('sha256').update(charge.status).update('\0').update(main).digest('base64url');
  return { hash, data: JSON.stringify({ version: hash, status: charge.status, label: STATUS_LABELS[charge.status], html: main }) };
}

function wantsJson(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('application/json');
}

