// What the specification says of a schema beyond what the schema itself says, for the proxy's checks
// (finding-rules.ts): which members the specification shows for a record (production is asked for
// those only), which integers are amounts in cents, which strings have a written form. Custom
// registries, so the OpenAPI document (made from zod's global registry) does not change.
import { z } from 'zod';

/**
 * The members the specification shows for an object schema, when they differ from the schema's
 * required members (the default): serve adds `pix.expiresAt`, and the inner shapes of boleto, card and
 * the timeline's, refunds' and movements' elements are "not shown".
 */
export const specShows = z.registry<{ members: readonly string[] }>();

/** An integer amount in cents: a fraction there is a `format` finding (cents written as reais?), not a `type` one. */
export const inCents = z.registry<{ unit: 'cents' }>();

/** A string the specification gives a written form (Enterprise.cnpj: NN.NNN.NNN/NNNN-NN), as a pattern and in words. */
export const writtenAs = z.registry<{ pattern: RegExp; words: string }>();
