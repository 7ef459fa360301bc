// Exit codes, one meaning each, and the error type commands throw; only main.ts calls process.exit.

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  network: 5,
  inputNeeded: 6,
  notPaid: 7,
  watchTimeout: 8,
  invalidSignature: 9,
  batchFailed: 10,
  invalidCode: 11,
  locationUnverified: 12,
  locationUnreachable: 13,
  notPayable: 14,
  drift: 15,
  replayUnused: 16,
  cancelled: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODE_HELP = `Exit codes:
  0    success (also when a reader such as \`| head\` closes the pipe early:
       pinvoice stops quietly)
  1    unexpected error; a configuration file that cannot be used
       (\`pinvoice login\` repairs it); serve: a database that cannot be
       opened (a damaged SQLite file, a PostgreSQL that does not answer
       within --db-timeout)
  2    usage or validation error (a flag, an argument, a payload field, text
       that is not UTF-8; login over another company's token without --force;
       an empty --batch; invoice refund without a terminal to confirm on and
       without --yes: nothing is sent; serve: a --fixtures file that is not
       valid, --seed on a database holding charges, a --write-env path in a
       missing folder)
  3    authentication failed (missing or rejected token)
  4    not found; a command only \`pinvoice serve\` answers, against another
       gateway
  5    server or network error (including a port already in use, or a
       database another serve holds)
  6    input needed but prompts are off (no TTY, or --no-input)
  7    invoice get --watch: the charge ended without being paid;
       invoice create: the card was refused at creation
  8    invoice get --watch: still pending when --timeout ran out;
       webhooks listen --count: fewer events than asked when --timeout ran out
  9    webhooks verify: the signature does not match (or is too old)
  10   invoice create --batch: some lines failed (their result lines say why)
  11   pix decode / boleto decode: the code breaks a rule (each is named);
       pix verify / pix pay: the code breaks a rule, or is static (no
       location to verify)
  12   pix verify / pix pay: the location's answer does not hold (signature,
       certificates, jku, txid or amount not the code's…: each failed step
       is named)
  13   pix verify / pix pay: the location (or its JWKS) could not be fetched:
       no answer, an untrusted TLS certificate, or an HTTP status other
       than 200
  14   pix verify / pix pay: all verified, but the charge is not open to
       payment (CONCLUIDA: already paid; REMOVIDA_PELO_PSP: expired or
       canceled)
  15   drift: a group at or above --fail-on (default error) is left after
       --accept (an expired acceptance counts again)
  16   proxy --replay --strict: a recorded exchange was never asked for
       (each is named at stop)
  130  cancelled (Ctrl-C)`;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);
