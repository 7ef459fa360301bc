// The server's own names, against DNS rebinding and forged links (as Vite's `server.allowedHosts` and
// webpack-dev-server's `allowedHosts` answer them): the pages (the dashboard; the payer's checkout page,
// its forms, its PDF and its live stream) and the dashboard's sign-in link answer only a Host that
// names this server, and a link is built from such a name, never from a Host that is not one. A rebound
// page (evil.example resolving to 127.0.0.1) sends `Host: evil.example` and its own Origin, which agree
// with each other: only the Host's name tells it from the server's pages. The API answers any Host:
// its bearer token guards it, and a rebound page has none.
import { isIP, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allowedHostEntry, formatHostPort, parseHostPort } from '../base/host-port.js';
import { ApiError } from './errors.js';
import { html, PAGE_HEADERS } from './html.js';
import { listeningHost, WILDCARDS } from './pix-location/host.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** which Host names this server, and the origin its links name */
    ownHosts: OwnHosts;
  }
}

export interface OwnHosts {
  /** whether a Host header names this server: read strictly (host[:port], nothing else), its port not compared */
  allows(host: string | undefined): boolean;
  /** scheme://host[:port] a link names: --public-host, else the request's Host when it is one of ours, else the listening address */
  origin(host?: string): string;
}

export interface OwnHostsOptions {
  https: boolean;
  /** `--public-host`: host[:port] */
  publicHost?: string;
  /** `--allowed-host`: names, or `.domain` for a domain and the names under it */
  allowedHosts: readonly string[];
  /** the listening socket's address (null before listening: then loopback's names stand for it) */
  address: () => AddressInfo | string | null;
}

/** localhost, the names under .localhost (RFC 6761: browsers resolve them to loopback), 127.0.0.0/8, ::1. */
const loopback = (name: string) => name === 'localhost' || name.endsWith('.localhost') || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'));

/** The machine's own addresses, read when asked (an interface may come or go while the server runs). */
const interfaceAddresses = () => Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address.toLowerCase()));

export function createOwnHosts(options: OwnHostsOptions): OwnHosts {
  const entries = options.allowedHosts.map((given) => {
    const entry = allowedHostEntry(given);
    if (entry === undefined) throw new TypeError(`allowedHosts: ${JSON.stringify(given)} is not a host name or address (without a port), nor a .domain`);
    return entry;
  });
  const publicName = options.publicHost === undefined ? undefined : parseHostPort(options.publicHost)?.name;
  const listening = (): AddressInfo | undefined => {
    const address = options.address();
    return typeof address === 'object' && address !== null ? address : undefined;
  };

  function ours(name: string): boolean {
    if (loopback(name) || name === publicName) return true;
    if (entries.some((entry) => entry === name || (entry.startsWith('.') && (name === entry.slice(1) || name.endsWith(entry))))) return true;
    const bound = listening()?.address.toLowerCase();
    if (bound === undefined) return false;
    if (name === bound) return true;
    // a wildcard listens on every address of the machine: each of them (and the wildcard itself) is ours
    return WILDCARDS.has(bound) && isIP(name) !== 0 && (WILDCARDS.has(name) || interfaceAddresses().includes(name));
  }

  const scheme = options.https ? 'https' : 'http';
  return {
    allows(host) {
      const parsed = host === undefined ? undefined : parseHostPort(host);
      return parsed !== undefined && ours(parsed.name);
    },
    origin(host) {
      if (options.publicHost !== undefined) return `${scheme}://${options.publicHost}`;
      const parsed = host === undefined ? undefined : parseHostPort(host);
      if (parsed && ours(parsed.name)) return `${scheme}://${formatHostPort(parsed)}`;
      const bound = listening();
      return `${scheme}://${bound ? listeningHost(bound.address, bound) : 'localhost'}`;
    },
  };
}

/** Why a Host is refused, in words that name the flag that would allow it. */
export function hostRefusal(host: string | undefined): string {
  const parsed = host === undefined ? undefined : parseHostPort(host);
  if (!parsed) {
    return `The Host header ${host === undefined ? 'is missing' : `${JSON.stringify(host)} is not a host name with an optional port`}: this server's pages and sign-in links answer only at its own names.`;
  }
  return `${parsed.name} is not one of this server's names (loopback, its listening address, --public-host, --allowed-host): its pages and sign-in links answer only at those. If ${parsed.name} does name this server (a proxy's, a tunnel's or a Compose service's name), start it with --allowed-host ${parsed.name}.`;
}

/** The API's refusal of a Host (the sign-in link's endpoint): 403 forbidden. */
export const hostRefused = (host: string | undefined) => new ApiError(403, 'forbidden', hostRefusal(host));

const PAGE_PATHS = /^\/(dashboard|checkout)(\/|$)/;

/**
 * The pages answer only at the server's own names: every route under /dashboard and /checkout gets a
 * first onRequest hook that refuses any other Host with 403 (a page, or JSON to a script that asks for
 * it). Added per route, so the API's routes run no hook for it. Call before the pages are registered.
 */
export function guardPages(app: FastifyInstance, hosts: OwnHosts): void {
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    const host = request.headers.host;
    if (hosts.allows(host)) return;
    const message = hostRefusal(host);
    reply.code(403).headers(PAGE_HEADERS);
    if ((request.headers.accept ?? '').includes('application/json')) return reply.send(hostRefused(host).body());
    return reply.type('text/html; charset=utf-8').send(refusedPage(message));
  };
  app.addHook('onRoute', (route) => {
    if (!PAGE_PATHS.test(route.url)) return;
    const others = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [guard, ...others];
  });
}

const refusedPage = (message: string) =>
  html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not this server's name</title></head><body><h1>Not this server's name</h1><p>${message}</p></body></html>`.text;
