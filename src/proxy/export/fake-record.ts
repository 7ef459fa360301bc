// One production record with its people faked (fake-people.ts): the payer's members wherever the
// record has them (client, customer, payer, shipping, delivery: name, document, e-mail, phone, birth
// date, street, number, complement, district, zip; city, state and country kept), the card holder's
// name, and then any other string of the record that holds one of those originals (a timeline note
// naming the payer). The merchant's metadata is kept as sent: what it holds is the merchant's, and an
// original found there is named (its path, never its value) for the export to warn of. Money,
// statuses, items, the timeline's shape and members nobody listed are kept as production sent them.
import { formatDocument } from '../../domain/document.js';
import type { Faker, FakePerson } from './fake-people.js';
import { isJsonObject as isObject } from '../../base/json-object.js';

type Json = Record<string, unknown>;

/** The sections of a record that describe the payer (the spec's payer and customer shapes, production's client). */
const PERSON_SECTIONS = ['client', 'customer', 'payer', 'shipping', 'delivery'] as const;

/**
 * A member of a person's section, by its name: what of the fake replaces it, and whether its original
 * is also sought in the record's other strings (words and documents; not short numbers, which a
 * secureId or a pix code may hold by chance).
 */
interface Pick { fake(fake: FakePerson, original: string): string; sought: boolean }
const PERSONAL: Record<string, Pick> = {};
const as = (names: string[], fake: Pick['fake'], sought = false) => names.forEach((name) => (PERSONAL[name] = { fake, sought }));
as(['name', 'full_name', 'fullName', 'holder_name', 'holderName', 'recipient_name'], (fake) => fake.name, true);
as(['cpf_cnpj', 'cpf', 'cnpj', 'document', 'document_number'], (fake, original) => fake.document(original), true);
as(['email', 'e_mail'], (fake) => fake.email, true);
as(['phone', 'phone_number', 'phoneNumber', 'mobile', 'cellphone'], (fake) => fake.phone);
as(['birthdate', 'birth_date', 'birthDate'], (fake) => fake.birthdate);
as(['street', 'address_line', 'address', 'line1', 'street_name'], (fake) => fake.street, true);
as(['streetNumber', 'street_number', 'address_number'], (fake) => fake.number);
as(['complement', 'address_complement', 'line2'], () => '', true);
as(['neighborhood', 'district', 'address_neighborhood'], (fake) => fake.district, true);
as(['zipCode', 'zip_code', 'zip', 'address_zip', 'postal_code', 'postalCode', 'cep'], (fake) => fake.zip);

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** Who the record's payer is, as its sections say it. */
function payerOf(record: Json): { document: string | null; email: string | null; name: string | null } {
  const sections = PERSON_SECTIONS.map((name) => record[name]).filter(isObject);
  const first = (read: (section: Json) => unknown) => sections.map(read).map(text).find((value) => value !== null) ?? null;
  return {
    document: first((s) => s.cpf_cnpj ?? s.cpf ?? s.cnpj ?? (isObject(s.document) ? s.document.number : s.document)),
    email: first((s) => s.email),
    name: first((s) => s.name),
  };
}

interface Pass {
  /** originals and their fakes, for the strings elsewhere that hold an original */
  seen: Map<string, string>;
}

function replace(pass: Pass, original: unknown, fake: string, sought: boolean): unknown {
  if (typeof original === 'number') return /^\d+$/.test(fake) ? Number(fake) : fake;
  if (typeof original !== 'string' || original.trim() === '') return original;
  if (sought) pass.seen.set(original, fake);
  if (sought && /^[\d.\-/ ]{11,18}$/.test(original)) pass.seen.set(original.replace(/\D/g, ''), fake.replace(/\D/g, ''));
  return fake;
}

/** A person's section with its personal members faked, at any depth (customer.address.street, customer.document.number). */
function fakeSection(value: unknown, fake: FakePerson, pass: Pass, within = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => fakeSection(item, fake, pass, within));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, member] of Object.entries(value)) {
    const pick = within === 'document' && key === 'number' ? PERSONAL.document : within === 'address' && key === 'number' ? PERSONAL.streetNumber : Object.hasOwn(PERSONAL, key) ? PERSONAL[key] : undefined;
    if (pick && !isObject(member) && !Array.isArray(member)) out[key] = replace(pass, member, pick.fake(fake, String(member)), pick.sought);
    else out[key] = fakeSection(member, fake, pass, key);
  }
  return out;
}

/** Every string of the value with each original in it replaced by its fake (longest first). */
function scrub(value: unknown, originals: [string, string][]): unknown {
  if (typeof value === 'string') return originals.reduce((s, [original, fake]) => (s.includes(original) ? s.split(original).join(fake) : s), value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, originals));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, scrub(member, originals)]));
}

/** The paths under `value` whose strings hold an original (metadata's, for the warning). */
function holding(value: unknown, originals: [string, string][], path: string): string[] {
  if (typeof value === 'string') return originals.some(([original]) => value.includes(original)) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => holding(item, originals, `${path}[${i}]`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, member]) => holding(member, originals, `${path}.${key}`));
}

export interface FakedRecord {
  record: Json;
  /** paths of the record's metadata that hold one of its people's originals (kept as sent) */
  metadataHolding: string[];
}

export function fakeRecord(record: Json, faker: Faker): FakedRecord {
  const payer = payerOf(record);
  const pass: Pass = { seen: new Map() };
  const out: Json = { ...record };
  if (payer.document || payer.email || payer.name) {
    const fake = faker.person(payer);
    for (const name of PERSON_SECTIONS) if (isObject(record[name])) out[name] = fakeSection(record[name], fake, pass);
    if (payer.document) pass.seen.set(formatDocument(payer.document), formatDocument(fake.document(payer.document)));
  }
  for (const name of ['card', 'card_associate']) {
    const card = record[name];
    if (!isObject(card)) continue;
    const holder = text(card.holder_name) ?? text(card.holderName);
    if (holder === null) continue;
    const named = faker.name(holder);
    const fakeHolder = holder === holder.toUpperCase() ? named.toUpperCase() : named;
    out[name] = { ...card, ...('holder_name' in card && { holder_name: replace(pass, card.holder_name, fakeHolder, true) }), ...('holderName' in card && { holderName: replace(pass, card.holderName, fakeHolder, true) }) };
  }
  // originals of 3 characters or more, longest first (a name before a word of it)
  const originals = [...pass.seen].filter(([original]) => original.length >= 3).sort((a, b) => b[0].length - a[0].length);
  const faked = Object.fromEntries(Object.entries(out).map(([key, value]) => [key, key === 'metadata' ? value : scrub(value, originals)]));
  return { record: faked, metadataHolding: holding(out.metadata, originals, 'metadata') };
}
