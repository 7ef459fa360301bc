// The sandbox's controls for time and faults as data (contract, "Sandbox controls for time and
// faults"): the company's clock, postback chaos, the list of magic values, and which key signs its
// postbacks' X-Webhook-Signature. `pinvoice serve` only.
import { z } from 'zod';
import { BODY_SIGNATURE_HEADER } from '../domain/signature.js';
import { CLOCK_LATEST } from './clock-bound.js';
import { typeError } from './schemas.js';

const timestamp = () => z.iso.datetime({ precision: 3 }).describe('ISO 8601 UTC, milliseconds, trailing Z');

/** The longest jump one request may make the clock take: ten years. */
export const MAX_CLOCK_JUMP_SECONDS = 10 * 366 * 86_400;
/** How long chaos may hold a delivery, and how many attempts it may drop. */
export const MAX_CHAOS_DELAY_MS = 60_000;
export const MAX_CHAOS_DROP = 10;

export const SandboxClock = z.object({
  now: timestamp().describe("the company's sandbox time: real time plus the offset"),
  offset_seconds: z.number().describe('how far ahead of real time the clock is (0: real time); milliseconds as a fraction'),
});

export const ClockAdvanceRequest = z.object({
  seconds: z.int({ error: typeError('must be a whole number of seconds') }).min(1, 'must be at least 1').max(MAX_CLOCK_JUMP_SECONDS, `must be at most ${MAX_CLOCK_JUMP_SECONDS} (ten years)`),
});

export const ClockSetRequest = z.object({
  now: z.iso.datetime({ offset: true, error: typeError('must be an ISO 8601 date and time with its zone, e.g. 2026-12-01T12:00:00Z') })
    .describe(`at most ${CLOCK_LATEST}, the latest time the sandbox clock may read (422 beyond)`),
});

const flag = () => z.boolean({ error: 'must be true or false' });

/** What the pix location may do wrong, as a payer's bank must notice (contract, "Pix as the payer's bank sees it"). */
export const PIX_LOCATION_FAULTS = ['expired_certificate', 'unknown_kid', 'foreign_jku', 'bad_signature', 'unavailable'] as const;
export type PixLocationFault = (typeof PIX_LOCATION_FAULTS)[number];

/** What PUT /sandbox/chaos takes: every member optional (absent: off), the whole rule replaced. */
export const ChaosRequest = z.object({
  duplicate: flag().optional().describe('send each postback twice'),
  delay_ms: z.int({ error: 'must be a whole number of milliseconds' }).min(0, 'must be at least 0').max(MAX_CHAOS_DELAY_MS, `must be at most ${MAX_CHAOS_DELAY_MS}`).optional()
    .describe('hold each delivery this long before sending it'),
  reorder: flag().optional().describe("send a charge's pending events newest first"),
  drop_first: z.int({ error: 'must be a whole number' }).min(0, 'must be at least 0').max(MAX_CHAOS_DROP, `must be at most ${MAX_CHAOS_DROP}`).optional()
    .describe('fail the first N attempts of each event without sending them'),
  bad_signature: flag().optional().describe('sign with a wrong secret'),
  pix_location: z.enum(PIX_LOCATION_FAULTS, { error: `must be one of ${PIX_LOCATION_FAULTS.join(', ')}, or null` }).nullish()
    .describe("what the pix code's location does wrong, for a payer's bank to refuse: a JWS signed by an expired certificate, a kid not in the JWKS, a jku on another host, an altered signature, or a 503; null or absent: none"),
  invoice_id: z.union([z.string().trim().min(1, 'must not be empty').max(64), z.int().min(1)], { error: 'must be an integer id or a secureId (INV-…)' }).nullish()
    .describe("narrows the rule to one charge (its id or secureId); null or absent: every charge of the company"),
});

/** The company's chaos rule as it stands (all off when none is set). */
export const ChaosRule = z.object({
  duplicate: z.boolean(),
  delay_ms: z.int(),
  reorder: z.boolean(),
  drop_first: z.int(),
  bad_signature: z.boolean(),
  pix_location: z.enum(PIX_LOCATION_FAULTS).nullable().describe("the pix location's fault; null: none"),
  invoice_id: z.string().nullable().describe('the secureId of the one charge the rule is narrowed to; null: every charge'),
  active: z.boolean().describe('whether any fault is on'),
});

export const SIGNING_KEYS = ['secret', 'token'] as const;

/** What PUT /sandbox/webhook-signing takes: `token` makes the request's own bearer token the key. */
export const WebhookSigningRequest = z.object({
  key: z.enum(SIGNING_KEYS, { error: 'must be "secret" or "token"' })
    .describe('secret: the webhook secret keys X-Webhook-Signature (the default); token: the bearer token of this very request does'),
});

/** Which key signs the company's X-Webhook-Signature: never the key itself. */
export const WebhookSigning = z.object({
  key: z.enum(SIGNING_KEYS).describe('what keys X-Webhook-Signature: the webhook secret, or an API token of the company'),
  token_name: z.string().nullable().describe('with key "token": the name of the token that signs (as in `serve token list`); null otherwise'),
  token_hint: z.string().nullable().describe('with key "token": enough of that token to recognise it, never enough to use it; null otherwise'),
  header: z.literal(BODY_SIGNATURE_HEADER).describe('the header so keyed; Pinvoice-Signature is always keyed with the webhook secret'),
});

export const SCENARIO_KINDS = ['card', 'card_token', '3ds', 'pix', 'boleto'] as const;

export const Scenario = z.object({
  kind: z.enum(SCENARIO_KINDS),
  value: z.string().describe('what to send'),
  outcome: z.string().describe('what the sandbox then does'),
});
export const ScenarioList = z.object({ data: z.array(Scenario) });

/** A one-time link that signs a browser in to the dashboard as the request's token. */
export const DashboardLink = z.object({
  url: z.string().describe('open it once, within 10 minutes: it signs in to /dashboard as this token (read-only for a read-only token) and is spent'),
  expires_at: timestamp(),
});

export type SandboxClock = z.infer<typeof SandboxClock>;
export type ClockAdvanceRequest = z.infer<typeof ClockAdvanceRequest>;
export type ChaosRequest = z.infer<typeof ChaosRequest>;
export type ChaosRule = z.infer<typeof ChaosRule>;
export type SigningKey = (typeof SIGNING_KEYS)[number];
export type WebhookSigningRequest = z.infer<typeof WebhookSigningRequest>;
export type WebhookSigning = z.infer<typeof WebhookSigning>;
export type Scenario = z.infer<typeof Scenario>;
