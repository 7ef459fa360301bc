// How far the sandbox clock may go (docs/sandbox.md), said once for the API's schemas, the server's
// clock operations, the dashboard's clock forms and `serve --clock`. No zod here: the CLI's option
// parsers load this before any command runs.

/**
 * The latest time a company's sandbox clock may read. Every time a charge is given from it (a pix
 * expiry, a boleto's due date and grace days, postback retries) then stays within four-digit years:
 * the store keeps times as ISO text, whose order is their order only in that form.
 */
export const CLOCK_LATEST = '2099-12-31T23:59:59.999Z';
const CLOCK_LATEST_MS = Date.parse(CLOCK_LATEST);

/** What a refused move says, after the name of the field that asked for it. */
export const CLOCK_BOUND_MESSAGE = `would take the sandbox clock past ${CLOCK_LATEST}, the latest time it may read`;

/** Whether the clock may read this instant (ms since the epoch; NaN may not). */
export const withinClockBound = (ms: number): boolean => ms <= CLOCK_LATEST_MS;

/** The longest a pix charge may stay payable (`serve --pix-expiry`): ten years, well inside four-digit years from the latest clock. */
export const MAX_PIX_EXPIRY_SECONDS = 10 * 366 * 86_400;
