// "Baixar boleto": the slip as a PDF (pdfkit), with its ITF barcode (bwip-js), from the public view
// only. The PDF's metadata names the typeable line, so a program can check which slip it holds.
import type { PublicInvoice } from '../../api/schemas.js';
import { formatDigitableLine } from '../../domain/boleto.js';
import { formatBRL } from '../../domain/money.js';
import { boletoBarcodePng } from './codes.js';
import { formatDate, STATUS_LABELS } from './render.js';

type Boleto = NonNullable<PublicInvoice['boleto']>;

/** The PDF's built-in fonts hold Latin-1 (WinAnsi): any other character of a name is shown as "?". */
const latin1 = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/gu, '?');

export async function boletoPdf(view: PublicInvoice & { boleto: Boleto }): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const line = formatDigitableLine(view.boleto.digitableLine);
  const barcode = await boletoBarcodePng(view.boleto.barcode);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: { Title: `Boleto ${view.secureId} - ${latin1(view.company.fantasy_name)}`, Subject: line, Keywords: view.boleto.barcode, Creator: 'pinvoice serve (sandbox)' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const width = doc.page.width - 96;

  doc.font('Helvetica-Bold').fontSize(16).text(latin1(view.company.fantasy_name), { width });
  doc.moveDown(0.3).font('Helvetica').fontSize(9).fillColor('#b00020')
    .text('Boleto de teste gerado pelo sandbox do pinvoice: não tem valor e não deve ser pago.', { width });
  doc.fillColor('#000000').moveDown(1);
  doc.font('Helvetica-Bold').fontSize(13).text(line, { width, characterSpacing: 0.5 });
  doc.moveDown(0.8);

  const field = (label: string, value: string) => {
    doc.font('Helvetica').fontSize(8).fillColor('#555555').text(label, { width });
    doc.font('Helvetica-Bold').fontSize(11).fillColor('#000000').text(value, { width }).moveDown(0.5);
  };
  field('Beneficiário', latin1(view.company.fantasy_name));
  field('Vencimento', formatDate(view.boleto.dueDate));
  field('Valor do documento', formatBRL(view.amount));
  field('Número do documento', view.secureId);
  field('Situação', STATUS_LABELS[view.status]);

  doc.moveDown(0.5).font('Helvetica').fontSize(8).fillColor('#555555').text('Itens', { width });
  doc.fillColor('#000000').fontSize(10);
  for (const item of view.items) doc.text(`${item.quantity} × ${latin1(item.title)}: ${formatBRL(item.quantity * item.unitPrice)}`, { width });

  doc.moveDown(1.5);
  doc.image(barcode, { width: Math.min(width, 420) });
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
