// Whether a parsed JSON value is an object (a record's members), not an array or null: the test every
// walk over a gateway's answers starts from.
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
