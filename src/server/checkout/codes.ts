// The images of a charge, drawn by libraries: the pix QR code (qrcode) and the boleto's ITF barcode
// (bwip-js), as SVG for the page and as PNG for the boleto's PDF. Loaded when first needed.

/** The pix copy-and-paste code as an SVG QR code (error correction M, a quiet zone of 4 modules). */
export async function pixQrSvg(code: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(code, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
}

const ITF = { bcid: 'interleaved2of5', includetext: false, backgroundcolor: 'ffffff', paddingwidth: 10, paddingheight: 2 } as const;

/** The boleto's 44-digit barcode as an ITF (interleaved 2 of 5) SVG. */
export async function boletoBarcodeSvg(barcode: string): Promise<string> {
  const { default: bwipjs } = await import('bwip-js');
  return bwipjs.toSVG({ ...ITF, text: barcode, height: 13 });
}

/** The same barcode as a PNG, for the PDF. */
export async function boletoBarcodePng(barcode: string): Promise<Buffer> {
  const { default: bwipjs } = await import('bwip-js');
  return bwipjs.toBuffer({ ...ITF, text: barcode, height: 13, scale: 3 });
}
