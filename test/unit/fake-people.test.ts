// The fakes of `pinvoice logs export` (src/proxy/export/): one person, one fake under one key, documents
// valid and of their kind, another key another fake, the card holder the payer's fake, originals sought
// in the record's other strings but metadata kept (and named), members named like Object's kept.
import { describe, expect, it } from 'vitest';
import { isValidCnpj, isValidCpf } from '../../src/domain/document.js';
import { createFaker } from '../../src/proxy/export/fake-people.js';
import { fakeRecord } from '../../src/proxy/export/fake-record.js';

const KEY = Buffer.alloc(32, 7);

describe('createFaker', () => {
  it('gives one person one fake, whichever form the document is written in, and valid documents of its kind', () => {
    const faker = createFaker(KEY);
    const cpf = faker.person({ document: '529.982.247-25', name: 'Maria Silva' });
    expect(faker.person({ document: '52998224725', email: 'other@example.com' })).toBe(cpf);
    expect(isValidCpf(cpf.document('52998224725'))).toBe(true);
    const company = faker.person({ document: '11.222.333/0001-81' });
    expect(isValidCnpj(company.document('11.222.333/0001-81'))).toBe(true);
    expect(faker.people).toBe(2);
    expect(faker.name('MARIA SILVA')).toBe(cpf.name);
  });

  it('draws other fakes under another key (no fake is a plain function of its original)', () => {
    const names = new Set([KEY, Buffer.alloc(32, 8), Buffer.alloc(32, 9)].map((key) => createFaker(key).person({ document: '52998224725' }).email));
    expect(names.size).toBe(3);
  });
});

describe('fakeRecord', () => {
  const record = {
    id: 1, secureId: 'INV-1-1', status: 'in_analysis', amount: 990,
    client: { name: 'Maria Silva', cpf_cnpj: '52998224725', email: 'maria@example.com', constructor: 'kept' },
    customer: { name: 'Maria Silva', document: { number: '529.982.247-25', type: 'cpf' }, address: { street: 'Rua Augusta', number: '12', city: 'São Paulo' } },
    card: { holder_name: 'MARIA SILVA', last_four: '1111' },
    timeline: [{ note: 'checked with Maria Silva' }],
    metadata: { contact: 'maria@example.com' },
  };

  it('fakes the payer wherever the record has them, the holder as the payer, and keeps metadata, naming it', () => {
    const { record: faked, metadataHolding } = fakeRecord(record, createFaker(KEY)) as { record: any; metadataHolding: string[] };
    const text = JSON.stringify({ ...faked, metadata: undefined });
    for (const original of ['Maria', 'SILVA', '52998224725', '529.982.247-25', 'maria@example.com', 'Rua Augusta']) expect(text).not.toContain(original);
    expect(faked.customer.document.number).toBe(faked.client.cpf_cnpj);
    expect(faked.card).toEqual({ holder_name: faked.client.name.toUpperCase(), last_four: '1111' });
    expect(faked.timeline[0].note).toBe(`checked with ${faked.client.name}`);
    expect([faked.customer.address.city, faked.client.constructor, faked.amount, faked.status]).toEqual(['São Paulo', 'kept', 990, 'in_analysis']);
    expect(faked.metadata).toEqual(record.metadata);
    expect(metadataHolding).toEqual(['metadata.contact']);
  });
});
