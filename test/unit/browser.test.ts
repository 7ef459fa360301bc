import { describe, expect, it } from 'vitest';
import { openers, splitCommand } from '../../src/commands/invoice/browser.js';

describe('$BROWSER', () => {
  it('splits an entry into words as a shell would for quotes and backslashes', () => {
    expect(splitCommand('firefox --new-window')).toEqual(['firefox', '--new-window']);
    expect(splitCommand(`"/opt/My Browser/run" 'a b' c\\ d ""`)).toEqual(['/opt/My Browser/run', 'a b', 'c d', '']);
    expect(splitCommand('  ')).toEqual([]);
  });

  it('tries each entry of a colon-separated list, the URL appended or in place of %s (%% is a percent sign)', () => {
    const url = 'http://127.0.0.1:4010/checkout/abc';
    expect(openers(url, { BROWSER: 'w3m:firefox --private-window' }, 'linux')).toEqual([['w3m', [url]], ['firefox', ['--private-window', url]]]);
    expect(openers(url, { BROWSER: 'open -a Safari --args %s --x=100%%' }, 'linux')).toEqual([['open', ['-a', 'Safari', '--args', url, '--x=100%']]]);
  });

  it('without $BROWSER: the platform opener, and none on Linux without a graphical session', () => {
    const url = 'http://x/checkout/a';
    expect(openers(url, {}, 'darwin')).toEqual([['open', [url]]]);
    expect(openers(url, {}, 'linux')).toEqual([]);
    expect(openers(url, { DISPLAY: ':0' }, 'linux')).toEqual([['xdg-open', [url]]]);
  });
});
