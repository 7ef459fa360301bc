// The payer's checkout page as HTML, in Brazilian Portuguese: rendered on the server whole (it works
// without JavaScript), from the public view only (no fees, no payer document, no balances). Every
// string that comes from data goes through `html` escaping; the images (the pix QR, the boleto's ITF
// barcode) are SVG made by libraries, inline.
import type { PublicInvoice } from '../../api/schemas.js';
import { formatDigitableLine } from '../../domain/boleto.js';
import { formatBRL } from '../../domain/money.js';
import type { Status } from '../../domain/status.js';
import { brasiliaTime } from '../brasilia-time.js';
import { html, trusted, type SafeHtml } from '../html.js';

const dateTime = brasiliaTime({ day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** 2026-11-23T15:04:00Z → "23/11/2026, 12:04" (Brasília time). */
export const formatDateTime = (iso: string) => dateTime(new Date(iso));
/** 2026-11-30 → "30/11/2026" (a calendar date, no time zone). */
export const formatDate = (isoDate: string) => isoDate.split('-').reverse().join('/');

export const STATUS_LABELS: Record<Status, string> = {
  pending: 'Aguardando pagamento',
  waiting_3ds: 'Aguardando autenticação do cartão',
  paid: 'Pagamento confirmado',
  refused: 'Pagamento recusado',
  expired: 'Expirado',
  canceled: 'Cancelado',
  refunded: 'Estornado',
  chargedback: 'Contestado',
};

const METHOD_LABELS = { pix: 'Pix', boleto: 'Boleto', credit_card: 'Cartão de crédito' } as const;

/** What the page shows beyond the public view: the images and where its controls post. */
export interface CheckoutExtras {
  /** the checkout token's path, `/checkout/<token>` */
  base: string;
  /** the pix QR code as SVG (pending pix only) */
  qrSvg?: string;
  /** the boleto's ITF barcode as SVG (pending boleto only) */
  barcodeSvg?: string;
  /** the sandbox controls are shown (the page of `pinvoice serve` always has them) */
  sandbox: boolean;
  /** how far the company's sandbox clock runs ahead of real time: the countdown counts on that clock */
  clockOffsetMs?: number;
}

function copyField(id: string, label: string, value: string, rows: number) {
  return html`<div class="copy">
  <label for="${id}">${label}</label>
  <textarea id="${id}" class="code" readonly rows="${rows}" spellcheck="false">${value}</textarea>
  <button type="button" class="button" data-copy="${id}">Copiar</button>
  <p class="copied" role="status" data-copied-for="${id}"></p>
</div>`;
}

function pixSection(view: PublicInvoice, extras: CheckoutExtras) {
  if (!view.pix || view.status !== 'pending') return '';
  return html`<section class="pay" aria-labelledby="pay-h">
  <h2 id="pay-h">Pague com Pix</h2>
  <p>Abra o app do seu banco, escolha pagar com Pix e aponte a câmera para o código, ou copie o código abaixo.</p>
  <figure class="qr" role="img" aria-label="QR code do Pix">${trusted(extras.qrSvg ?? '')}</figure>
  ${copyField('pix-code', 'Pix copia e cola', view.pix.qrCode, 5)}
  ${view.expiresAt ? html`<p class="expiry">Válido até <time datetime="${view.expiresAt}">${formatDateTime(view.expiresAt)}</time>.
    <span class="countdown" data-expires="${view.expiresAt}" data-clock-offset="${String(extras.clockOffsetMs ?? 0)}" aria-live="off"></span></p>` : ''}
</section>`;
}

function boletoSection(view: PublicInvoice, extras: CheckoutExtras) {
  if (!view.boleto || view.status !== 'pending') return '';
  return html`<section class="pay" aria-labelledby="pay-h">
  <h2 id="pay-h">Pague com boleto</h2>
  <p class="due">Vencimento: <time datetime="${view.boleto.dueDate}">${formatDate(view.boleto.dueDate)}</time></p>
  ${copyField('boleto-line', 'Linha digitável', formatDigitableLine(view.boleto.digitableLine), 2)}
  <figure class="barcode" role="img" aria-label="Código de barras do boleto">${trusted(extras.barcodeSvg ?? '')}</figure>
  <p><a class="button" href="${extras.base}/boleto.pdf" download>Baixar boleto</a></p>
</section>`;
}

function challengeSection(view: PublicInvoice, extras: CheckoutExtras) {
  if (view.status !== 'waiting_3ds') return '';
  return html`<section class="pay challenge" aria-labelledby="pay-h">
  <h2 id="pay-h">Autenticação 3-D Secure</h2>
  <p>O banco emissor do cartão pede que você confirme esta compra.</p>
  <p class="sandbox-note">Sandbox: esta etapa faz o papel da página do banco emissor.</p>
  <div class="actions">
    <form method="post" action="${extras.base}/3ds/authenticate" data-action><button class="button primary" type="submit">Autenticar</button></form>
    <form method="post" action="${extras.base}/3ds/fail" data-action><button class="button" type="submit">Falhar autenticação</button></form>
  </div>
</section>`;
}

function outcomeSection(view: PublicInvoice) {
  switch (view.status) {
    case 'paid':
      return html`<section class="outcome ok" aria-labelledby="outcome-h">
  <h2 id="outcome-h" tabindex="-1">Pagamento confirmado</h2>
  <p>Recebemos o seu pagamento${view.paidAt ? html` em <time datetime="${view.paidAt}">${formatDateTime(view.paidAt)}</time>` : ''}. Obrigado!</p>
</section>`;
    case 'expired':
      return html`<section class="outcome" aria-labelledby="outcome-h"><h2 id="outcome-h" tabindex="-1">Esta cobrança expirou</h2><p>Peça uma nova cobrança a ${view.company.fantasy_name}.</p></section>`;
    case 'canceled':
      return html`<section class="outcome" aria-labelledby="outcome-h"><h2 id="outcome-h" tabindex="-1">Esta cobrança foi cancelada</h2><p>Nada foi cobrado.</p></section>`;
    case 'refused':
      return html`<section class="outcome bad" aria-labelledby="outcome-h"><h2 id="outcome-h" tabindex="-1">Pagamento recusado</h2><p>O pagamento não foi aprovado. Nada foi cobrado.</p></section>`;
    case 'refunded':
      return html`<section class="outcome" aria-labelledby="outcome-h"><h2 id="outcome-h" tabindex="-1">Pagamento estornado</h2><p>O valor foi devolvido.</p></section>`;
    case 'chargedback':
      return html`<section class="outcome" aria-labelledby="outcome-h"><h2 id="outcome-h" tabindex="-1">Pagamento contestado</h2><p>O pagamento foi contestado junto ao emissor do cartão.</p></section>`;
    default:
      return '';
  }
}

function sandboxSection(view: PublicInvoice, extras: CheckoutExtras) {
  if (!extras.sandbox || (view.status !== 'pending' && view.status !== 'waiting_3ds')) return '';
  const action = (name: string, label: string) =>
    html`<form method="post" action="${extras.base}/sandbox/${name}" data-action><button class="button" type="submit">${label}</button></form>`;
  return html`<section class="sandbox" aria-labelledby="sandbox-h">
  <h2 id="sandbox-h">Controles do sandbox</h2>
  <p>Somente neste ambiente de testes: nada é cobrado de verdade.</p>
  <div class="actions">
    ${action('pay', 'Simular pagamento')}
    ${view.status === 'pending' ? action('expire', 'Expirar') : ''}
    ${action('cancel', 'Cancelar')}
  </div>
</section>`;
}

function itemsSection(view: PublicInvoice) {
  return html`<section class="items" aria-labelledby="items-h">
  <h2 id="items-h">Itens</h2>
  <table>
    <thead><tr><th scope="col">Item</th><th scope="col" class="num">Qtd.</th><th scope="col" class="num">Valor</th></tr></thead>
    <tbody>
${view.items.map((item) => html`      <tr><td>${item.title}</td><td class="num">${item.quantity}</td><td class="num">${formatBRL(item.unitPrice * item.quantity)}</td></tr>\n`)}    </tbody>
    <tfoot><tr><th scope="row" colspan="2">Total</th><td class="num">${formatBRL(view.amount)}</td></tr></tfoot>
  </table>
</section>`;
}

/** The part of the page that changes with the charge (what live updates replace). */
export function renderMain(view: PublicInvoice, extras: CheckoutExtras): SafeHtml {
  return html`<div class="summary">
  <p class="amount">${formatBRL(view.amount)}</p>
  <p class="status status-${view.status}"><span class="label">Situação:</span> ${STATUS_LABELS[view.status]}</p>
  <p class="method">${METHOD_LABELS[view.method]} · ${view.secureId}</p>
</div>
${outcomeSection(view)}${pixSection(view, extras)}${boletoSection(view, extras)}${challengeSection(view, extras)}${itemsSection(view)}${sandboxSection(view, extras)}`;
}

function page(title: string, body: SafeHtml, live?: string): string {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<link rel="icon" href="data:,">
<title>${title}</title>
<link rel="stylesheet" href="/checkout/assets/checkout.css">
<script src="/checkout/assets/checkout.js" defer></script>
</head>
<body${live ? html` data-live="${live}"` : ''}>
${body}
<footer class="footer"><p>Ambiente de testes (sandbox) do pinvoice: nenhum valor é cobrado.</p></footer>
</body>
</html>
`.text;
}

/** The whole page of a charge; `#charge` is what live updates replace, `#announce` tells screen readers. */
export function renderCheckout(view: PublicInvoice, extras: CheckoutExtras, version: string): string {
  const body = html`<header class="merchant"><p class="merchant-name">${view.company.fantasy_name}</p></header>
<main>
<h1 class="visually-hidden">Pagamento para ${view.company.fantasy_name}</h1>
<p id="announce" class="visually-hidden" role="status"></p>
<div id="charge" data-status="${view.status}" data-version="${version}">
${renderMain(view, extras)}
</div>
</main>`;
  return page(`${formatBRL(view.amount)} · ${view.company.fantasy_name}`, body, `${extras.base}/live`);
}

/** The page for a token that names no charge. */
export function renderNotFound(): string {
  return page('Cobrança não encontrada', html`<header class="merchant"><p class="merchant-name">pinvoice</p></header>
<main>
<h1>Cobrança não encontrada</h1>
<p>O endereço não corresponde a nenhuma cobrança. Confira o link que você recebeu.</p>
</main>`);
}

/** The answer to a control posted from another site. */
export function renderRefused(): string {
  return page('Ação recusada', html`<header class="merchant"><p class="merchant-name">pinvoice</p></header>
<main>
<h1>Ação recusada</h1>
<p>Esta ação só pode ser feita pela própria página de pagamento. Abra o link da cobrança e tente de novo.</p>
</main>`);
}
