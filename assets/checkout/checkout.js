// The checkout page's script (served by pinvoice serve; the page works without it): copy buttons,
// the time left on a pix, the controls sent without leaving the page, and live updates: the server
// sends the changing part of the page whenever the charge changes, however it changed.
'use strict';

(function () {
  var charge = document.getElementById('charge');
  var announce = document.getElementById('announce');

  function copied(id, text) {
    var note = document.querySelector('[data-copied-for="' + id + '"]');
    if (note) note.textContent = text;
  }

  document.addEventListener('click', function (event) {
    var button = event.target.closest && event.target.closest('[data-copy]');
    if (!button) return;
    var id = button.getAttribute('data-copy');
    var field = document.getElementById(id);
    if (!field) return;
    var done = function () { copied(id, 'Código copiado.'); };
    var fallback = function () {
      field.select();
      try {
        document.execCommand('copy');
        done();
      } catch {
        copied(id, 'Selecione o código e copie.');
      }
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(field.value).then(done, fallback);
    else fallback();
  });

  // The controls: sent with fetch; what they change arrives by the live stream like any other change.
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute('data-action') || !window.fetch || !window.EventSource) return;
    event.preventDefault();
    var buttons = form.querySelectorAll('button');
    buttons.forEach(function (b) { b.disabled = true; });
    fetch(form.action, { method: 'POST', headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (response) { if (!response.ok && response.status !== 409) throw new Error(String(response.status)); })
      .catch(function () { form.submit(); })
      .finally(function () { buttons.forEach(function (b) { b.disabled = false; }); });
  });

  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function tick() {
    document.querySelectorAll('[data-expires]').forEach(function (el) {
      // the charge's time runs on its company's sandbox clock, data-clock-offset ms ahead of real time
      var now = Date.now() + (Number(el.getAttribute('data-clock-offset')) || 0);
      var left = Math.max(0, Math.floor((Date.parse(el.getAttribute('data-expires')) - now) / 1000));
      var h = Math.floor(left / 3600);
      var m = Math.floor((left % 3600) / 60);
      var s = left % 60;
      el.textContent = left > 0 ? 'Tempo restante: ' + (h > 0 ? h + ':' + pad(m) : m) + ':' + pad(s) : 'O prazo terminou.';
    });
  }
  tick();
  setInterval(tick, 1000);

  var live = document.body.getAttribute('data-live');
  if (!charge || !live || !window.EventSource) return;
  var source = new EventSource(live);
  source.addEventListener('update', function (event) {
    var update;
    try {
      update = JSON.parse(event.data);
    } catch {
      return;
    }
    if (charge.getAttribute('data-version') === update.version) return;
    var changed = charge.getAttribute('data-status') !== update.status;
    var hadFocus = charge.contains(document.activeElement);
    // the server's own rendering of the same part of the page, every data string already escaped
    charge.innerHTML = update.html;
    // a keyboard user whose button went away lands on what happened, not at the top of the page
    if (hadFocus) {
      var target = document.getElementById('outcome-h') || charge;
      if (target === charge) charge.setAttribute('tabindex', '-1');
      target.focus();
    }
    charge.setAttribute('data-version', update.version);
    charge.setAttribute('data-status', update.status);
    if (changed && announce) announce.textContent = update.label;
    tick();
  });
})();
