// The `serve --fixtures` document `pinvoice logs export` writes: each production record with its
// people faked (one fake a person across the export), as `records: [{record}]`, which serve loads
// into its first company (or the company a file of the user's gives: records[].company).
import { createFaker } from './fake-people.js';
import { fakeRecord } from './fake-record.js';
import type { Json } from './sources.js';

export interface ExportedDocument {
  document: { records: { record: Json }[] };
  /** how many people were faked */
  people: number;
  /** paths of the document whose metadata holds a person's original (kept as sent) */
  metadataHolding: string[];
}

export function fixturesDocument(records: Json[]): ExportedDocument {
  const faker = createFaker();
  const metadataHolding: string[] = [];
  const faked = records.map((original, i) => {
    const { record, metadataHolding: paths } = fakeRecord(original, faker);
    metadataHolding.push(...paths.map((path) => `records[${i}].record.${path}`));
    return { record };
  });
  return { document: { records: faked }, people: faker.people, metadataHolding };
}
