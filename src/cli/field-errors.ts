// A payload error in the words of whoever typed the payload. The shared validator and the server speak
// the API's language (`total_price_cents: must equal the sum … (500), not 1000`), which is right for
// an API; a person typed `--amount 10 --item X:1:5`, so the CLI names the flag and says reais:
// `--amount: R$ 10,00 is not the sum of the items (--item): R$ 5,00`. A value from --file keeps its
// JSON path, its amount shown in reais beside it. One phrasebook serves the CLI's own validation and
// the details of a server's 400/422 alike (seconds said as durations too); a message it does not know
// is kept as the API wrote it.
import type { ErrorDetail } from '../api/schemas.js';
import { spokenDuration, spokenSeconds } from '../base/spoken-duration.js';
import { formatBRL, isCents } from '../domain/money.js';
import { ApiRequestError } from '../client/errors.js';
import { CliError, EXIT } from './errors.js';
import { urlProblem } from './url-flag.js';

/** How a command's payload relates to what the person gave it. */
export interface FieldTerms {
  /** the flag that gave the value at a payload path ('amount_cents' -> '--amount'); undefined: not a flag */
  flagOf?: (path: string) => string | undefined;
  /** the payload as sent, for the value at a path */
  sent?: unknown;
  /** where the values no flag gave came from ('--file'), for naming them */
  source?: string;
}

/** "R$ 10,00" for whole cents; anything else as it is. */
const reais = (cents: number) => (isCents(cents) ? formatBRL(cents) : String(cents));

/**
 * How the numbers of a field are said: cents (`…_cents`, an item's unit price) in reais, seconds and
 * milliseconds as durations ("10 days"); undefined for a field whose numbers are just numbers.
 */
export function unitOf(path: string): ((value: number) => string) | undefined {
  if (/(_cents|(^|\.)unit_price)$/.test(path)) return reais;
  if (/(^|[._])seconds$/.test(path)) return spokenSeconds;
  if (/_ms$/.test(path)) return spokenDuration;
  return undefined;
}

/** The value at "items[0].unit_price" in the payload. */
export function valueAt(payload: unknown, path: string): unknown {
  let value = payload;
  for (const key of path.split(/\.|\[(\d+)\]/).filter((part) => part !== undefined && part !== '')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A value as a message shows it: amounts in reais, durations spoken, text quoted. */
function shown(path: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const say = unitOf(path);
  if (say && Number.isSafeInteger(value)) return say(value as number);
  return JSON.stringify(value) ?? String(value);
}

/** The words after the value, its numbers said by `say`; `byFlag`: the value was typed as a flag (so the items are named by theirs). */
type Phrase = (numbers: string[], say: (value: number) => string, terms: FieldTerms, byFlag: boolean) => string;

/**
 * The rules about numbers, from the API's words (the shared validator's and the server's: cents,
 * seconds) to a person's. Each phrase follows the value: "R$ 200,00 is more than what is left to refund, R$ 100,00".
 */
const NUMBER_RULES: [RegExp, Phrase][] = [
  [/^must equal the sum of quantity \* unit_price of the items \((\d+)\), not \d+$/, ([sum], say, terms, byFlag) => {
    if (!byFlag) return `is not the sum of quantity × unit_price of the items, ${say(Number(sum))}`;
    return `is not the sum of the items (${terms.flagOf?.('items') ?? `items in ${terms.source ?? 'the request'}`}): ${say(Number(sum))}`;
  }],
  [/^must be at most (\d+) \(.*left to refund\)$/, ([left], say) => `is more than what is left to refund, ${say(Number(left))}`],
  [/^must be at most (\d+)( \([^)]*\))?$/, ([most, aside], say) => `is more than the most it can be, ${say(Number(most))}${aside}`],
  [/^must be at least (\d+)( \([^)]*\))?$/, ([least, aside], say) => `is less than the least it can be, ${say(Number(least))}${aside}`],
  [/^must be a whole number from (\d+) to (\d+) \(cents\)$/, ([least, most], say) =>
    `must be a whole number of cents, from ${least} (${say(Number(least))}) to ${most} (${say(Number(most))})`],
];

/** A number rule's phrase, or undefined when the field has no unit or the message is not one the phrasebook knows. */
function numberPhrase(path: string, message: string, terms: FieldTerms, byFlag: boolean): string | undefined {
  const say = unitOf(path);
  if (say === undefined) return undefined;
  for (const [pattern, phrase] of NUMBER_RULES) {
    const match = pattern.exec(message);
    if (match) return phrase(match.slice(1).map((part) => part ?? ''), say, terms, byFlag);
  }
  return undefined;
}

/** A message that reads on from its value ("is …", "must …"): said right after it. */
const followsValue = (message: string) => /^(is|must|has|keys) /.test(message);

/**
 * One detail in the person's words: `--amount: R$ 200,00 is more than what is left to refund, R$ 100,00`
 * when a flag gave the value; `total_price_cents (R$ 10,00): …` when a file did.
 */
export function phraseDetail(detail: ErrorDetail, terms: FieldTerms = {}): string {
  const { path, message } = detail;
  const flag = terms.flagOf?.(path);
  const raw = valueAt(terms.sent, path);
  const value = shown(path, raw);
  const amount = numberPhrase(path, message, terms, flag !== undefined);
  // "localhost:3000/hook" is refused as no URL: say the scheme is missing, and what was meant
  const url = /http or https URL$/.test(message) && typeof raw === 'string' ? urlProblem(raw) : undefined;
  if (flag !== undefined) {
    const said = amount ?? url ?? message;
    return value !== undefined && followsValue(said) ? `${flag}: ${value} ${said}` : `${flag}: ${said.replace(/^is required/, 'required')}`;
  }
  if (url !== undefined) return `${path}: ${value} ${url}`;
  const beside = unitOf(path) && value !== undefined ? ` (${value})` : '';
  return `${path}${beside}: ${amount ?? message}`;
}

/** "--amount: …" for one problem; the headline and one indented line each for several. */
function listed(headline: string, lines: string[]): string {
  return lines.length === 1 ? (lines[0] ?? headline) : `${headline}:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}

/** The CLI's own validation failed: exit 2, each problem in the person's words. */
export function invalidRequest(headline: string, details: readonly ErrorDetail[], terms: FieldTerms): CliError {
  return new CliError(listed(headline, details.map((detail) => phraseDetail(detail, terms))), EXIT.usage);
}

/**
 * A server's 400/422 about fields, said in the terms of the flags that gave them (exit 2, as before);
 * anything else goes on as it was.
 */
export function inUserTerms(error: unknown, terms: FieldTerms): unknown {
  if (!(error instanceof ApiRequestError) || (error.status !== 400 && error.status !== 422) || error.details.length === 0) return error;
  const headline = error.message.replace(/[.:]\s*$/, '');
  return new CliError(listed(headline, error.details.map((detail) => phraseDetail(detail, terms))), EXIT.usage);
}

/** An API error with no command's terms (main.ts): its fields still show amounts in reais. */
export const describeApiError = (error: ApiRequestError): string => error.describe((detail) => phraseDetail(detail));
