// The dashboard's live parts, serve's and a proxy's (every page works without them): times shown in the browser's own
// zone, and the page's live region read again when the journal's stream says an entry came (and, for a
// charge or the company, every 5 s: the server's own changes, such as an expiry, make no entry).
'use strict';
(() => {
  const format = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const localTimes = (root) => {
    for (const time of root.querySelectorAll('time[datetime]')) {
      const at = new Date(time.dateTime);
      if (!Number.isNaN(at.getTime())) time.textContent = format.format(at);
    }
  };
  localTimes(document);

  const main = document.getElementById('main');
  if (!main || !main.dataset.live) return;
  // where this dashboard lives: serve's /dashboard, or a proxy's /_pinvoice/dashboard
  const base = main.dataset.base || '/dashboard';
  let busy = false;
  let again = false;
  let timer;

  const typing = (region) => {
    const active = document.activeElement;
    return active && region.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
  };

  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const answer = await fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin', cache: 'no-store' });
      if (answer.redirected && new URL(answer.url).pathname === base) return location.assign(base);
      if (!answer.ok) return;
      const fresh = new DOMParser().parseFromString(await answer.text(), 'text/html').getElementById('live-region');
      const here = document.getElementById('live-region');
      if (!fresh || !here || typing(here)) return;
      const seen = new Set([...here.querySelectorAll('tr[data-id]')].map((row) => row.dataset.id));
      const open = new Set([...here.querySelectorAll('details[open]')].map((d, k) => k));
      here.replaceWith(fresh);
      [...fresh.querySelectorAll('details')].forEach((d, k) => open.has(k) && (d.open = true));
      for (const row of fresh.querySelectorAll('tr[data-id]')) if (!seen.has(row.dataset.id)) row.classList.add('new');
      localTimes(fresh);
    } catch {
      // the server away for a moment: the next entry or tick tries again
    } finally {
      busy = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  }
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 100);
  };

  const query = new URLSearchParams(main.dataset.query || '');
  if (main.dataset.cursor) query.set('after', main.dataset.cursor);
  const stream = new EventSource(`${base}/stream${query.size ? `?${query}` : ''}`);
  stream.addEventListener('entry', schedule);
  if (main.dataset.live === 'region') setInterval(() => document.hidden || schedule(), 5000);
  addEventListener('pagehide', () => stream.close());
})();
