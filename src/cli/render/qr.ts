// QR codes drawn with Unicode half blocks, two module rows per text line, for a pix code in a terminal.
import qrcode from 'qrcode-terminal';

// qrcode-terminal writes the low byte of each UTF-16 unit, which garbles anything outside Latin-1.
// Handing it the UTF-8 bytes as one character each makes the QR hold UTF-8, which scanners expect.
function utf8Bytes(text: string): string {
  let bytes = '';
  for (const byte of new TextEncoder().encode(text)) bytes += String.fromCharCode(byte);
  return bytes;
}

/** The QR block for text, without a trailing newline. Light modules are the foreground colour. */
export function renderQr(text: string): string {
  let block: string | undefined;
  // generate calls back synchronously; without a callback it would print to the console itself.
  qrcode.generate(utf8Bytes(text), { small: true }, (output) => {
    block = output;
  });
  if (block === undefined) throw new Error('qrcode-terminal did not return a QR block');
  return block.replace(/\n+$/, '');
}
