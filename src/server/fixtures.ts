// `serve --fixtures FILE` and startSandbox({ fixtures }): companies and charges in given states, loaded
// at start through the API's own operations. readFixtures checks a file whole (every problem named by
// its JSON path, nothing written); loadFixtures applies what it answers. The format is
// fixtures/schema.ts, shipped as the JSON Schema schemas/fixtures.schema.json.
export { FixturesError, readFixtures, type ChargeFixture, type CompanyFixture, type Fixtures, type RecordFixture } from './fixtures/check.js';
export type { LoadedRecord } from './fixtures/production-records.js';
export { loadFixtures, type FixtureSources, type FixturesLoaded, type LoadedCharge } from './fixtures/load.js';
export { FIXTURE_STATES, fixturesJsonSchema, type FixtureState, type FixturesInput } from './fixtures/schema.js';
