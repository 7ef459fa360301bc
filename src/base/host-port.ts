// Ground floor (src/base): imports nothing of ours but src/domain.
// A host and an optional port read strictly, as a URL's authority names a server: a Host header the
// pages take, or a name a flag gives. Anything else (a path, a fragment, user info, spaces) is no host.
import { isIP } from 'node:net';

export interface HostPort {
  /** lowercased, without a trailing dot; an IPv6 address without its brackets */
  name: string;
  port?: number;
}

/** A DNS label as host names use them (an underscore too: Docker Compose's service names may hold one). */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A host name (or an IPv4 address), lowercased, its trailing dot dropped; undefined when it is not one. */
export function hostNamed(text: string): string | undefined {
  const name = text.toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > 253 || !name.split('.').every((label) => LABEL.test(label))) return undefined;
  // a name whose last label is a number is an IPv4 address or nothing (as browsers read it)
  if (/^\d+$/.test(name.split('.').pop() ?? '') && isIP(name) !== 4) return undefined;
  return name;
}

/** `name[:port]` or `[ipv6][:port]`, the port 1 to 65535; undefined for anything else. */
export function parseHostPort(text: string): HostPort | undefined {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(text);
  if (!match) return undefined;
  const [, v6, named, digits] = match;
  const port = digits === undefined ? undefined : Number(digits);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  const name = v6 !== undefined ? (isIP(v6) === 6 ? v6.toLowerCase() : undefined) : hostNamed(named ?? '');
  return name === undefined ? undefined : { name, ...(port !== undefined && { port }) };
}

/** host[:port] as a URL writes it (an IPv6 address in brackets). */
export const formatHostPort = ({ name, port }: HostPort): string => `${name.includes(':') ? `[${name}]` : name}${port === undefined ? '' : `:${port}`}`;

/**
 * A name `--allowed-host` gives: a host name or address without a port (any port of an allowed name
 * is allowed), or `.example.com` for that domain and every name under it. Answers it lowercased (an
 * IPv6 address without brackets), or undefined.
 */
export function allowedHostEntry(text: string): string | undefined {
  const trimmed = text.trim();
  const domain = trimmed.startsWith('.');
  const rest = domain ? trimmed.slice(1) : trimmed;
  const v6 = /^\[(.*)\]$/.exec(rest)?.[1] ?? rest;
  if (!domain && isIP(v6) === 6) return v6.toLowerCase();
  const name = hostNamed(rest);
  return name === undefined || (domain && isIP(name) !== 0) ? undefined : `${domain ? '.' : ''}${name}`;
}
