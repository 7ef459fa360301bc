// `pinvoice pix`: what a pix copy-and-paste code says and whether it keeps the Banco Central's rules
// (decode), what its location answers and whether that holds (verify), and paying it as a payer's
// bank would (pay, sandbox). Each action imports its handler when it runs, so --help loads none.
import { Command, InvalidArgumentError, Option, type OptionValues } from '../commander.js';
import { apiCommand, examples, positiveSeconds, withYes, type FlagsOf } from '../options.js';

const decodeCommand = () =>
  new Command('decode')
    .description("show every field of a pix copy-and-paste code (BR Code) and check it against the BCB's rules; exit 0 valid, 11 not")
    .argument('<code|->', 'the code as pasted (line breaks and spaces a terminal or chat added are dropped); - reads stdin')
    .option('--json', 'print JSON for scripts instead of tables')
    .option('--no-color', 'no colour (also NO_COLOR=1, or when stdout is not a terminal)')
    .addHelpText('after', examples(
      "pinvoice pix decode '00020101021226…6304A5E9'",
      'pbpaste | pinvoice pix decode -                    # a code copied from a chat or an e-mail',
      'pinvoice pix decode - --json < code.txt | jq -r ".problems[].rule"',
    ));
export type PixDecodeFlags = FlagsOf<typeof decodeCommand>;

function codMun(value: string): string {
  if (!/^\d{7}$/.test(value)) throw new InvalidArgumentError("must be a municipality's IBGE code: 7 digits, such as 3550308 (São Paulo)");
  return value;
}

/** What verifying a location takes, for verify and pay alike. */
function locationOptions<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>) {
  return command
    .option('--ca <file>', "trust this CA (PEM) too, for the location's TLS and its signing certificates (besides Node's roots and NODE_EXTRA_CA_CERTS)")
    .addOption(new Option('--cod-mun <code>', "the payer's municipality (IBGE code) sent as codMun (default: 3550308, São Paulo)").argParser(codMun));
}

const verifyCommand = () =>
  locationOptions(new Command('verify')
    .description("fetch a dynamic pix code's location over https and verify it as a payer's bank does: JWS, jku keys, x5c chain, x5t#S256, and the charge against the code (txid, amount, ATIVA); exit 0 only when every step holds")
    .argument('<code|->', 'the code as pasted; - reads stdin'))
    .addOption(new Option('--timeout <seconds>', 'give up on each fetch (the location, its keys) after this long (default: 10)').argParser(positiveSeconds))
    .option('--json', 'print JSON for scripts: every step with ok and message, and the payload as fetched')
    .option('--no-color', 'no colour (also NO_COLOR=1, or when stdout is not a terminal)')
    .addHelpText('after', examples(
      "pinvoice pix verify '00020101021226…6304A5E9'",
      'pbpaste | pinvoice pix verify - --ca psp-ca.pem          # a PSP whose certificates come from a private CA',
      "pinvoice pix verify - --json < code.txt | jq '.steps[] | select(.ok == false)'",
    ));
export type PixVerifyFlags = FlagsOf<typeof verifyCommand>;

const payCommand = () =>
  withYes(locationOptions(apiCommand(new Command('pay'))
    .description("pay a dynamic pix code as a payer's bank app does (sandbox): verify it as `pix verify`, show merchant and amount, ask on a terminal, then pay its charge on the configured `pinvoice serve`; refuses a charge that is not ATIVA")
    .argument('<code|->', 'the code as pasted; - reads stdin')))
    .addHelpText('after', examples(
      'pinvoice pix pay "$(pbpaste)"',
      'pinvoice pix pay - --yes --ca "$(pinvoice serve ca)" < code.txt     # a script; serve --tls',
    ));
export type PixPayFlags = FlagsOf<typeof payCommand>;

export function pixGroup() {
  return new Command('pix')
    .description('read, verify and pay pix copy-and-paste codes (BR Codes)')
    .addCommand(decodeCommand().action(async (code, flags) => (await import('./decode.js')).decodePixCode(code, flags)))
    .addCommand(verifyCommand().action(async (code, flags) => (await import('./verify.js')).verifyPixCode(code, flags)))
    .addCommand(payCommand().action(async (code, flags) => (await import('./pay.js')).payPixCode(code, flags)));
}
