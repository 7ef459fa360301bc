// The translators from the API's and the system's words to a person's: payload paths to flags, cents to
// reais, errno codes to sentences, a URL without its scheme, durations, commander's usage errors, and
// operations to the commands that call them.
import { describe, expect, it } from 'vitest';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { validateCreateRequest } from '../../src/api/validate.js';
import { pathProblem } from '../../src/base/path-problem.js';
import { spokenDuration, spokenSeconds } from '../../src/base/spoken-duration.js';
import { CliError, EXIT } from '../../src/cli/errors.js';
import { describeApiError, inUserTerms, invalidRequest, phraseDetail, valueAt, type FieldTerms } from '../../src/cli/field-errors.js';
import { COMMAND_OF_OPERATION } from '../../src/cli/operation-commands.js';
import { urlProblem } from '../../src/cli/url-flag.js';
import { usageWords } from '../../src/cli/usage-words.js';
import { ApiRequestError } from '../../src/client/errors.js';
import { OPERATIONS } from '../../src/client/operations.js';
import { buildProgram } from '../../src/program.js';

const PAYER = { name: 'Fulano de Tal', email: 'f@example.com', cpf_cnpj: '529.982.247-25' };
const flags = (map: Record<string, string>): FieldTerms['flagOf'] => (path) => map[path];

describe('payload errors name the flag and say reais', () => {
  const body = { method: 'pix', payer: PAYER, items: [{ name: 'X', quantity: 1, unit_price: 500 }], total_price_cents: 1000 };
  const sum = (() => {
    const checked = validateCreateRequest(body);
    if (checked.ok) throw new Error('expected the total to be refused');
    return checked.details;
  })();

  it('the shared validator’s sum rule, by flags: --amount against --item', () => {
    expect(sum).toHaveLength(1);
    expect(phraseDetail(sum[0]!, { flagOf: flags({ total_price_cents: '--amount', items: '--item' }), sent: body }))
      .toBe('--amount: R$ 10,00 is not the sum of the items (--item): R$ 5,00');
  });

  it('--amount against items from --file', () => {
    expect(phraseDetail(sum[0]!, { flagOf: flags({ total_price_cents: '--amount' }), sent: body, source: '--file' }))
      .toBe('--amount: R$ 10,00 is not the sum of the items (items in --file): R$ 5,00');
  });

  it('both from --file: the JSON path, with its amount in reais beside it', () => {
    expect(phraseDetail(sum[0]!, { flagOf: flags({}), sent: body, source: '--file' }))
      .toBe('total_price_cents (R$ 10,00): is not the sum of quantity × unit_price of the items, R$ 5,00');
  });

  it('the server’s refund cap: --amount in reais against what is left', () => {
    const detail = { path: 'amount_cents', message: 'must be at most 10000 (R$ 100,00 left to refund)' };
    expect(phraseDetail(detail, { flagOf: flags({ amount_cents: '--amount' }), sent: { amount_cents: 20000 } }))
      .toBe('--amount: R$ 200,00 is more than what is left to refund, R$ 100,00');
  });

  it('the schema’s bounds of an amount, from --file', () => {
    const checked = validateCreateRequest({ method: 'pix', payer: PAYER, total_price_cents: 0 });
    expect(checked.ok).toBe(false);
    const detail = checked.ok ? undefined : checked.details.find((d) => d.path === 'total_price_cents');
    expect(phraseDetail(detail!, { sent: { total_price_cents: 0 } })).toBe('total_price_cents (R$ 0,00): is less than the least it can be, R$ 0,01');
    expect(phraseDetail({ path: 'items[0].unit_price', message: 'must be at most 100000000' }, { sent: { items: [{ unit_price: 100000001 }] } }))
      .toBe('items[0].unit_price (R$ 1.000.000,01): is more than the most it can be, R$ 1.000.000,00');
  });

  it('seconds are said as a duration (the sandbox clock’s jump)', () => {
    expect(phraseDetail({ path: 'seconds', message: 'must be at most 316224000 (ten years)' }, { sent: { seconds: 604_800_000 } }))
      .toBe('seconds (7000 days): is more than the most it can be, 3660 days (ten years)');
  });

  it('any other field: the flag and the value typed, then the API’s words', () => {
    const terms = { flagOf: flags({ 'payer.email': '--payer-email', 'payer.address_zip': '--payer-zip' }), sent: { payer: { email: 'bad' } } };
    expect(phraseDetail({ path: 'payer.email', message: 'must be an e-mail address' }, terms)).toBe('--payer-email: "bad" must be an e-mail address');
    expect(phraseDetail({ path: 'payer.address_zip', message: 'is required for boleto' }, terms)).toBe('--payer-zip: required for boleto');
    expect(phraseDetail({ path: 'payer.cpf_cnpj', message: 'is required' }, terms)).toBe('payer.cpf_cnpj: is required');
  });

  it('a URL without its scheme, in a file or a flag', () => {
    const sent = { postback_url: 'localhost:3000/hook' };
    const detail = { path: 'postback_url', message: 'must be an absolute http or https URL' };
    expect(phraseDetail(detail, { sent })).toBe('postback_url: "localhost:3000/hook" has no scheme: did you mean http://localhost:3000/hook?');
    expect(phraseDetail(detail, { sent, flagOf: flags({ postback_url: '--postback-url' }) }))
      .toBe('--postback-url: "localhost:3000/hook" has no scheme: did you mean http://localhost:3000/hook?');
  });

  it('one problem is one line; several are listed under the headline; exit 2 either way', () => {
    const one = invalidRequest('the charge is not valid', sum, { flagOf: flags({ total_price_cents: '--amount', items: '--item' }), sent: body });
    expect([one.message, one.exitCode]).toEqual(['--amount: R$ 10,00 is not the sum of the items (--item): R$ 5,00', EXIT.usage]);
    const two = invalidRequest('the charge is not valid', [...sum, { path: 'payer.email', message: 'must be an e-mail address' }], { sent: body });
    expect(two.message).toBe('the charge is not valid:\n  total_price_cents (R$ 10,00): is not the sum of quantity × unit_price of the items, R$ 5,00\n  payer.email: must be an e-mail address');
  });

  it('a server’s 422 becomes a usage error in the flags’ terms; other errors pass untouched', () => {
    const refused = new ApiRequestError(422, 'validation_failed', 'The refund is larger than what is left to refund.', [{ path: 'amount_cents', message: 'must be at most 10000 (R$ 100,00 left to refund)' }]);
    const said = inUserTerms(refused, { flagOf: flags({ amount_cents: '--amount' }), sent: { amount_cents: 20000 } });
    expect(said).toBeInstanceOf(CliError);
    expect([(said as CliError).message, (said as CliError).exitCode]).toEqual(['--amount: R$ 200,00 is more than what is left to refund, R$ 100,00', EXIT.usage]);
    const conflict = new ApiRequestError(409, 'invalid_state', 'The charge is pending.');
    expect(inUserTerms(conflict, {})).toBe(conflict);
  });

  it('with no command’s terms, an API error still shows amounts in reais', () => {
    const refused = new ApiRequestError(422, 'validation_failed', 'Invalid.', [{ path: 'amount_cents', message: 'must be at most 10000' }]);
    expect(describeApiError(refused)).toBe('Invalid. (HTTP 422 validation_failed)\n  amount_cents: is more than the most it can be, R$ 100,00');
    expect(refused.describe()).toBe('Invalid. (HTTP 422 validation_failed)\n  amount_cents: must be at most 10000');
  });

  it('finds a value by its JSON path', () => {
    expect(valueAt({ items: [{ unit_price: 5 }, { unit_price: 7 }] }, 'items[1].unit_price')).toBe(7);
    expect(valueAt({ payer: { email: 'x' } }, 'payer.email')).toBe('x');
    expect(valueAt(undefined, 'payer.email')).toBeUndefined();
  });
});

describe('errno codes said as what they mean for the path', () => {
  const error = (code: string, message = `${code}: something, open 'x'`) => Object.assign(new Error(message), { code });
  it.each([
    ['EISDIR', 'read', './charges is a folder, not a file'],
    ['ENOENT', 'read', './charges does not exist'],
    ['ENOENT', 'write', './charges cannot be written: the folder . does not exist'],
    ['EACCES', 'read', './charges cannot be read: permission denied'],
    ['EPERM', 'write', './charges cannot be written: permission denied'],
    ['ENOTDIR', 'read', './charges cannot be read: a part of the path before the file name is a file, not a folder'],
    ['EMFILE', 'read', './charges cannot be opened: too many files are open (raise the limit with ulimit -n)'],
    ['ENOSPC', 'write', './charges cannot be written: the disk is full'],
  ] as const)('%s (%s)', (code, use, said) => expect(pathProblem(error(code), './charges', use)).toBe(said));

  it('an unknown code keeps Node’s sentence, without its code and syscall', () => {
    expect(pathProblem(error('EWEIRD', "EWEIRD: something odd happened, open './x'"), './x', 'read')).toBe('./x cannot be read: something odd happened');
  });

  it('stdin is named as such', () => expect(pathProblem(error('EIO'), '-', 'read')).toBe('stdin cannot be read: the device reported an input/output error'));
});

describe('a URL without its scheme is suggested one', () => {
  it.each([
    ['localhost:4311', 'has no scheme: did you mean http://localhost:4311?'],
    ['127.0.0.1:4010/api', 'has no scheme: did you mean http://127.0.0.1:4010/api?'],
    ['gw.example.com', 'has no scheme: did you mean https://gw.example.com?'],
    ['ftp://gw.example.com', 'is not an http or https URL (it is ftp:)'],
    ['http://', 'is not a URL (example: http://127.0.0.1:4010)'],
    ['', 'is not a URL (example: http://127.0.0.1:4010)'],
  ])('%j %s', (value, said) => expect(urlProblem(value)).toBe(said));

  it.each(['http://localhost:4311', 'https://gw.example.com/api/v2'])('%s is fine', (value) => expect(urlProblem(value)).toBeUndefined());
});

describe('durations in the units a person reads', () => {
  it.each([
    [750, '750 ms'],
    [2500, '2.5 s'],
    [2000, '2 s'],
    [20_000, '20 s'],
    [90_000, '1 min 30 s'],
    [120_000, '2 min'],
    [5_400_000, '1 h 30 min'],
    [26 * 3_600_000, '26 h'],
    [75 * 3_600_000, '3 days 3 h'],
  ])('%d ms is %s', (ms, said) => expect(spokenDuration(ms)).toBe(said));

  it('seconds too, zero included', () => {
    expect(spokenSeconds(300)).toBe('5 min');
    expect(spokenSeconds(0)).toBe('0 s');
  });
});

describe('commander’s usage errors in pinvoice’s voice', () => {
  it.each([
    ["error: unknown option '--amout'\n(Did you mean --amount?)\n", "unknown option '--amout' (did you mean --amount?)"],
    ["error: unknown command 'invoce'\n(Did you mean one of invoice, events?)\n", "unknown command 'invoce' (did you mean one of invoice, events?)"],
    ["error: missing required argument 'ref'\n", "missing required argument 'ref'"],
    ["error: option '--timeout <seconds>' argument 'abc' is invalid. must be a whole number of seconds, at least 1\n", '--timeout: "abc" must be a whole number of seconds, at least 1'],
    ["error: option '--format <format>' argument 'x' is invalid. Allowed choices are table, json.\n", '--format: "x" is invalid: allowed choices are table, json'],
    ["error: option '--timeout <seconds>' argument missing\n", '--timeout needs a value (--timeout <seconds>)'],
    ["error: required option '--body <path>' not specified\n", '--body is required (--body <path>)'],
    ["error: too many arguments for 'get'. Expected 1 argument but got 2.\n", "too many arguments for 'get': it takes 1, and got 2"],
    ["error: unknown option '--\u001b[2J'\n", "unknown option '--\\x1b[2J'"],
  ])('%j', (text, said) => expect(usageWords(text)).toBe(said));
});

describe('operations are named by the commands that call them', () => {
  it('every operation has a command, and every command exists in the program', async () => {
    expect(Object.keys(COMMAND_OF_OPERATION).sort()).toEqual(Object.keys(OPERATIONS).sort());
    const program = (await buildProgram('0.0.0')) as unknown as CommandUnknownOpts;
    for (const [id, command] of Object.entries(COMMAND_OF_OPERATION)) {
      let at: CommandUnknownOpts | undefined = program;
      const words = command.split(' ');
      // a word past the last subcommand is an argument of it (`sandbox clock advance`)
      for (const [index, word] of words.entries()) {
        const child: CommandUnknownOpts | undefined = at?.commands.find((c) => c.name() === word);
        if (child) at = child;
        else expect(at?.registeredArguments.length, `${id}: "${words.slice(0, index + 1).join(' ')}"`).toBeGreaterThan(0);
      }
    }
  });

  it('no command is named by the specification’s operation name', () => {
    expect(COMMAND_OF_OPERATION.createRefund).toBe('invoice refund');
    expect(Object.values(COMMAND_OF_OPERATION).some((command) => /Create|Refunded|Infos/.test(command))).toBe(false);
  });
});
