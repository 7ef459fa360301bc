// One copy of each rule: the places that used to restate a rule now read it from one module. These
// tests hold the consumers to it, so that a copy cannot creep back in unnoticed.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPERATIONS } from '../../src/api/operations.js';
import { validateCreateRequest } from '../../src/api/validate.js';
import { PROFILE_NAME, profileSlug } from '../../src/cli/profile-name.js';
import { createOutput } from '../../src/cli/output.js';
import { validateCep, validateMonth, validateSecurityCode, validateUf } from '../../src/cli/prompts/validators.js';
import { SANDBOX_ACTION_NAMES, SANDBOX_ACTIONS } from '../../src/domain/status.js';
import { buildProgram } from '../../src/program.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const PAYER = { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25' };
const ADDRESS = { address_zip: '01310-100', address_line: 'Avenida Paulista', address_number: '1000', address_city: 'São Paulo', address_state: 'SP' };
const CARD = { number: '4111111111111111', first_name: 'Fulano', last_name: 'de Tal', month: '11', year: '2027', security_code: '123' };

/** Whether the API's validation finds nothing wrong at `path` in an otherwise valid charge. */
function serverAccepts(path: string, change: { payer?: object; card?: object }): boolean {
  const method = change.card ? 'credit_card' : 'boleto';
  const request = {
    method, total_price_cents: 1990, payer: { ...PAYER, ...ADDRESS, ...change.payer },
    ...(change.card && { card: { ...CARD, ...change.card } }),
  };
  const checked = validateCreateRequest(request, NOW);
  return checked.ok || !checked.details.some((detail) => detail.path === path);
}

describe("the prompts' validators accept exactly what the API accepts", () => {
  // Short strings of the characters these fields are made of, and of some they are not; digits and
  // letters alone often, so that every length near the rules' limits comes up.
  const typed = fc.oneof(fc.stringMatching(/^[0-9A-Za-z .\-/]{0,10}$/), fc.stringMatching(/^ ?\d{0,9} ?$/), fc.stringMatching(/^ ?[A-Za-z]{0,3} ?$/));

  it.each([
    ['payer.address_state', validateUf, (v: string) => ({ payer: { address_state: v } })],
    ['card.month', validateMonth, (v: string) => ({ card: { month: v } })],
    ['card.security_code', validateSecurityCode, (v: string) => ({ card: { security_code: v } })],
  ] as const)('%s (the prompt sends the answer trimmed)', (path, validate, change) => {
    fc.assert(fc.property(typed.filter((v) => v.trim() !== ''), (v) => {
      expect(validate(v) === true).toBe(serverAccepts(path, change(v.trim())));
    }), { numRuns: 1000 });
  });

  it('payer.address_zip (the prompt sends the CEP as 01310-100)', () => {
    fc.assert(fc.property(typed.filter((v) => v.trim() !== ''), (v) => {
      const sent = v.replace(/\D/g, '').replace(/^(\d{5})/, '$1-');
      if (validateCep(v) === true) expect(serverAccepts('payer.address_zip', { payer: { address_zip: sent } })).toBe(true);
      if (!/[.\s]/.test(v)) expect(validateCep(v) === true).toBe(serverAccepts('payer.address_zip', { payer: { address_zip: v.trim() } }));
    }), { numRuns: 1000 });
  });
});

describe('the sandbox actions: one list for the API, the server and the CLI', () => {
  it('the operation table has one sandbox operation per action, in order, each saying what it does', () => {
    const sandbox = OPERATIONS.filter((op) => 'sandbox' in op && op.sandbox && op.id.startsWith('sandbox_'));
    expect(sandbox.map((op) => op.id)).toEqual(SANDBOX_ACTION_NAMES.map((action) => `sandbox_${action}`));
    for (const action of SANDBOX_ACTION_NAMES) {
      expect(sandbox.find((op) => op.id === `sandbox_${action}`)?.summary).toContain(`${SANDBOX_ACTIONS[action].verb} the charge now`);
    }
  });

  it('`pinvoice sandbox` has one command per action, in order, then the clock, chaos, webhook signing and scenarios', async () => {
    const sandbox = (await buildProgram('0.0.0')).commands.find((command) => command.name() === 'sandbox');
    expect(sandbox?.commands.map((command) => command.name())).toEqual([...SANDBOX_ACTION_NAMES, 'clock', 'chaos', 'webhook-signing', 'scenarios']);
  });
});

describe('profileSlug: the one profile name suggested by login and serve company add', () => {
  it.each([
    ['Loja Dois', 'loja-dois'],
    ['Loja São João', 'loja-sao-joao'],
    ['  Pinvoice   Sandbox Ltda. ', 'pinvoice-sandbox-ltda'],
    ['!!!', 'company'],
    ['', 'company'],
    ['Ação & Cia/ME', 'acao-cia-me'],
  ])('profileSlug(%j) is %s', (name, slug) => expect(profileSlug(name)).toBe(slug));

  it('is always a valid profile name, leaving room for a -2 or -<id> suffix', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (name) => {
      const slug = profileSlug(name);
      expect(slug).toMatch(PROFILE_NAME);
      expect(slug.length).toBeLessThanOrEqual(40);
    }));
  });
});

describe('the output path: JSON lines and tab-separated records', () => {
  afterEach(() => vi.restoreAllMocks());

  function written(print: (out: ReturnType<typeof createOutput>) => void): string {
    const chunks: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (chunks.push(String(chunk)), true));
    print(createOutput({}, {}));
    return chunks.join('');
  }

  it('jsonLine prints the JSON text as one line, with C1 and bidi controls as \\u escapes', () => {
    const text = written((out) => out.jsonLine(JSON.stringify({ name: 'a\u009bb\u202ec', n: 1 })));
    expect(text).toBe('{"name":"a\\u009bb\\u202ec","n":1}\n');
    expect(JSON.parse(text)).toEqual({ name: 'a\u009bb\u202ec', n: 1 });
  });

  it('records separates fields with tabs and escapes the controls inside a field', () => {
    const text = written((out) => out.records([[1, 'Loja\tDois\u001b[2J', '11.222.333/0001-81'], [2, 'Outra', 'x']]));
    expect(text).toBe('1\tLoja\\tDois\\x1b[2J\t11.222.333/0001-81\n2\tOutra\tx\n');
  });
});
