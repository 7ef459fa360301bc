import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cardOutcome, check3ds, SAMPLE_3DS_VALUES, tokenOutcome } from '../../src/domain/card-outcome.js';
import { SCENARIOS, scenariosMarkdown } from '../../src/domain/scenarios.js';

const DOCS = new URL('../../docs/api.md', import.meta.url);
const BETWEEN = /(<!-- scenarios:start -->\n)[\s\S]*?(<!-- scenarios:end -->)/;

describe('the sandbox scenarios', () => {
  it('docs/api.md shows the table generated from SCENARIOS (run this test with -u after changing them)', async () => {
    const docs = readFileSync(DOCS, 'utf8');
    expect(docs).toMatch(BETWEEN);
    await expect(docs.replace(BETWEEN, `$1${scenariosMarkdown()}\n$2`)).toMatchFileSnapshot('../../docs/api.md');
  });

  it('lists each test card with the outcome the card rules give it', () => {
    const cards = SCENARIOS.filter((s) => s.kind === 'card' && /^\d/.test(s.value));
    expect(cards.length).toBeGreaterThanOrEqual(8);
    for (const card of cards) {
      const digits = card.value.replace(/ /g, '');
      const outcome = cardOutcome(digits);
      const said = outcome.kind === 'approved' ? 'paid at once' : outcome.kind === 'declined' ? `refusedReason ${outcome.reason}` : 'waiting_3ds';
      expect(card.outcome, card.value).toContain(said);
      expect(tokenOutcome(`tok_${digits}`).outcome).toEqual(outcome);
    }
  });

  it('the sample 3-D Secure values it names authenticate', () => {
    expect(SCENARIOS.some((s) => s.kind === '3ds' && s.value.includes(SAMPLE_3DS_VALUES.cavv))).toBe(true);
    expect(check3ds(SAMPLE_3DS_VALUES, 'visa')).toEqual({ authenticated: true });
    expect(check3ds({ ...SAMPLE_3DS_VALUES, eci: '07' }, 'visa').reason).toBe('authentication_failed');
    expect(check3ds({ ...SAMPLE_3DS_VALUES, cavv: 'short' }, 'visa').reason).toBe('invalid_cavv');
  });
});
