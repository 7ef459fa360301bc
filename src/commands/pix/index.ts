// `pinvoice pix decode`: what a pix copy-and-paste code says and whether it keeps the Banco Central's
// rules; more pix tools come later. The action imports its handler when it runs, so --help loads none.
import { Command } from '@commander-js/extra-typings';
import { examples, type FlagsOf } from '../options.js';

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

export function pixGroup() {
  return new Command('pix')
    .description('read pix copy-and-paste codes (BR Codes)')
    .addCommand(decodeCommand().action(async (code, flags) => (await import('./decode.js')).decodePixCode(code, flags)));
}
