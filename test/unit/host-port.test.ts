// A Host header read strictly (src/base/host-port.ts), and the names `--allowed-host` takes.
import { describe, expect, it } from 'vitest';
import { allowedHostEntry, formatHostPort, parseHostPort } from '../../src/base/host-port.js';

describe('parseHostPort', () => {
  it.each([
    ['localhost', { name: 'localhost' }],
    ['LocalHost:4010', { name: 'localhost', port: 4010 }],
    ['pinvoice:4010', { name: 'pinvoice', port: 4010 }],
    ['my_service.', { name: 'my_service' }],
    ['127.0.0.1:1', { name: '127.0.0.1', port: 1 }],
    ['[::1]:443', { name: '::1', port: 443 }],
    ['[FD00::2]', { name: 'fd00::2' }],
  ])('%s is a host', (text, expected) => expect(parseHostPort(text)).toEqual(expected));

  it.each([
    'evil.example/phish#', 'evil.example#', 'user@localhost', 'local host', ' localhost', 'localhost:', 'localhost:0', 'localhost:65536', 'localhost:4010:1',
    '::1', '[::1', '[not:v6]', '[::1]x', 'a..b', '.a', '-a.b', 'a-.b', '999.1.1.1', '1.2.3', '', 'a'.repeat(64), 'é.example', 'a%2fb',
  ])('%j is not', (text) => expect(parseHostPort(text)).toBeUndefined());

  it('writes it back as a URL does', () => {
    expect(formatHostPort({ name: '::1', port: 80 })).toBe('[::1]:80');
    expect(formatHostPort({ name: 'pinvoice' })).toBe('pinvoice');
  });
});

describe('allowedHostEntry', () => {
  it.each([
    ['pinvoice', 'pinvoice'], [' Shop.Test ', 'shop.test'], ['.tunnel.test', '.tunnel.test'], ['192.0.2.2', '192.0.2.2'], ['::1', '::1'], ['[fd00::2]', 'fd00::2'],
  ])('%j allows %j', (given, entry) => expect(allowedHostEntry(given)).toBe(entry));

  it.each(['pinvoice:4010', 'http://pinvoice', 'pinvoice/x', '.', '.192.0.2.2', '', '*.example.test', '[fd00::2]:80'])('%j is refused', (given) => expect(allowedHostEntry(given)).toBeUndefined());
});
