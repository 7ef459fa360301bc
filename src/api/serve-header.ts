// The Pinvoice-Serve answer header: `pinvoice serve` names itself (its version) on every answer of the
// API, so that the CLI asks for what only serve has (a charge's postback history, GET …/events) only
// of a server that has it, and learns that from the answer it already has: no request of its own, and
// no 404 in a production gateway's logs. The production gateway does not send it.

export const SERVE_HEADER = 'Pinvoice-Serve';

export const SERVE_HEADER_DESCRIPTION = 'The version of `pinvoice serve` that answered (`0.1.0`), on every answer of its API, errors included: the CLI asks for serve-only resources (a charge\'s postback history) only of a server that sends it. pinvoice serve only: the production gateway does not send it.';
