// `pinvoice boleto decode`: what a bank boleto's typeable line or barcode says, and whether its check
// digits match. The action imports its handler when it runs, so --help loads none.
import { Command } from '../commander.js';
import { examples, type FlagsOf } from '../options.js';

const decodeCommand = () =>
  new Command('decode')
    .description('show the bank, amount, due date and other form of a boleto line or barcode, and check each check digit; exit 0 valid, 11 not')
    .argument('<line|barcode>', 'a 47-digit typeable line (dots and spaces allowed) or a 44-digit barcode')
    .option('--json', 'print JSON for scripts instead of tables')
    .option('--no-color', 'no colour (also NO_COLOR=1, or when stdout is not a terminal)')
    .addHelpText('after', examples(
      'pinvoice boleto decode "00190.00009 02812.345672 00000.123174 2 16410000004990"',
      'pinvoice boleto decode 00192164100000049900000002812345670000012317',
      'pinvoice boleto decode 00190000090281234567200000123174216410000004990 --json | jq .due_date',
    ));
export type BoletoDecodeFlags = FlagsOf<typeof decodeCommand>;

export function boletoGroup() {
  return new Command('boleto')
    .description('read bank boletos (typeable lines and barcodes)')
    .addCommand(decodeCommand().action(async (line, flags) => (await import('./decode.js')).decodeBoletoLine(line, flags)));
}
