// The people of production records replaced by fakes for `pinvoice logs export`: one person, one fake
// across every record of an export (a person is their document, else their e-mail, else their name),
// each fake drawn from an HMAC of the person under a key made for the run and never written, so the same
// payer gets the same fake within one export, and no fake leads back to its original (none is a plain
// hash of a CPF). Documents keep their kind (a CPF stays a valid CPF, a CNPJ a valid CNPJ).
import { createHmac, randomBytes } from 'node:crypto';
import { cnpjCheckDigits, cpfCheckDigits, normalizeDocument } from '../../domain/document.js';

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fábio', 'Gabriela', 'Heitor', 'Isabela', 'João', 'Larissa', 'Marcos', 'Natália', 'Otávio', 'Paula', 'Rafael', 'Sofia', 'Tiago', 'Vitória', 'Yuri'];
const LAST = ['Almeida', 'Barbosa', 'Cardoso', 'Duarte', 'Esteves', 'Ferraz', 'Gomes', 'Hora', 'Lacerda', 'Moraes', 'Nogueira', 'Pacheco', 'Queiroz', 'Rocha', 'Siqueira', 'Teixeira', 'Vasconcelos', 'Xavier'];
const STREETS = ['Rua das Acácias', 'Avenida dos Ipês', 'Rua do Limoeiro', 'Travessa das Palmeiras', 'Rua Sete de Setembro', 'Alameda dos Jacarandás', 'Rua da Aurora', 'Avenida Beira-Rio'];
const DISTRICTS = ['Jardim Primavera', 'Vila Esperança', 'Centro', 'Parque das Flores', 'Bairro Novo', 'Alto da Colina'];

/** Everything a fake person is made of. */
export interface FakePerson {
  name: string;
  email: string;
  phone: string;
  birthdate: string;
  street: string;
  number: string;
  district: string;
  zip: string;
  /** a valid document of the same kind as `original` (CPF for 11 digits, CNPJ for 14 characters, else kept as a CPF) */
  document(original: string): string;
}

/** The words of a name, lower case and without accents: "MARIA SILVA" and "Maria Silva" are one name. */
export const nameKey = (name: string): string => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

function fakeOf(bytes: Buffer): FakePerson {
  const pick = <T>(list: readonly T[], i: number): T => list[(bytes[i] ?? 0) % list.length] as T;
  const digits = (from: number, count: number) => Array.from({ length: count }, (_, i) => String((bytes[from + i] ?? 0) % 10)).join('');
  const first = pick(FIRST, 0);
  const last = pick(LAST, 1);
  const tag = bytes.subarray(2, 5).toString('hex');
  return {
    name: `${first} ${last}`,
    email: `${nameKey(first)}.${nameKey(last)}.${tag}@example.com`.replace(/[^a-z0-9.@-]/g, ''),
    phone: `119${digits(5, 8)}`,
    birthdate: `19${60 + ((bytes[13] ?? 0) % 40)}-${String(1 + ((bytes[14] ?? 0) % 12)).padStart(2, '0')}-${String(1 + ((bytes[15] ?? 0) % 28)).padStart(2, '0')}`,
    street: pick(STREETS, 16),
    number: String(1 + (((bytes[17] ?? 0) << 8) + (bytes[18] ?? 0)) % 2000),
    district: pick(DISTRICTS, 19),
    zip: `0${digits(20, 7)}`,
    document(original) {
      const kind = normalizeDocument(original).length === 14 ? 'cnpj' : 'cpf';
      // a base of one digit repeated would make a document the validators refuse
      const base = kind === 'cpf' ? digits(21, 9) : `${digits(21, 8)}0001`;
      const safe = /^(\d)\1*$/.test(base.slice(0, 8)) ? `1${base.slice(1)}` : base;
      return safe + (kind === 'cpf' ? cpfCheckDigits(safe) : cnpjCheckDigits(safe));
    },
  };
}

export interface Faker {
  /** the fake of the person known by these (the first given of document, e-mail and name names them) */
  person(known: { document?: string | null; email?: string | null; name?: string | null }): FakePerson;
  /** the fake name of a name seen as a person's, or a fake of its own (a card holder who is no payer) */
  name(name: string): string;
  /** how many people were faked */
  readonly people: number;
}

export function createFaker(key: Buffer = randomBytes(32)): Faker {
  const people = new Map<string, FakePerson>();
  const names = new Map<string, string>();
  const draw = (identity: string) => fakeOf(createHmac('sha256', key).update(identity).digest());
  return {
    person(known) {
      const identity = known.document ? `document:${normalizeDocument(known.document)}` : known.email ? `email:${known.email.trim().toLowerCase()}` : `name:${nameKey(known.name ?? '')}`;
      let fake = people.get(identity);
      if (!fake) people.set(identity, (fake = draw(identity)));
      if (known.name) names.set(nameKey(known.name), fake.name);
      return fake;
    },
    name(name) {
      return names.get(nameKey(name)) ?? draw(`holder:${nameKey(name)}`).name;
    },
    get people() {
      return people.size;
    },
  };
}
