// The search box of a kafkagrid site of releases: it loads search-index.js (window.KG_INDEX,
// see search.go) the first time the reader uses it, and finds APIs, fields, error codes and
// KIPs as they type, in the page, with no server. Results are links; the arrow keys move
// through them, Enter opens one, Escape closes the list.
(function () {
  'use strict';
  var MAX = 60;
  var loading = null, waiting = [];
  function load(root, done) {
    if (window.KG_INDEX) { done(); return; }
    waiting.push(done);
    if (loading) return;
    loading = document.createElement('script');
    loading.src = root + 'search-index.js';
    loading.onload = function () { var w = waiting; waiting = []; w.forEach(function (f) { f(); }); };
    loading.onerror = function () { loading = null; };
    document.head.appendChild(loading);
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function rank(name, q) {
    var n = name.toLowerCase();
    if (n === q) return 0;
    if (n.indexOf(q) === 0) return 1;
    if (n.indexOf(q) > 0) return 2;
    return -1;
  }
  function span(X, first, last) { return first === last ? 'Kafka ' + X.r[first] : 'Kafka ' + X.r[first] + '–' + X.r[last]; }
  function page(root, X, api, rel, frag) {
    return root + X.r[rel] + '/api/' + X.p[api][rel] + '.html' + (frag ? '#' + frag : '');
  }
  // search returns the results for q: [rank, kind, title, sub, href], best first.
  function search(root, X, raw) {
    var q = raw.trim().toLowerCase(), out = [];
    if (!q) return out;
    var kq = q.replace(/^kip[\s-]*/, 'kip-');
    X.a.forEach(function (a, i) {
      var r = rank(a[1], q);
      X.p[i].forEach(function (n) { if (n && n !== a[1]) { var o = rank(n, q); if (o >= 0 && (r < 0 || o < r)) r = o; } });
      if (String(a[0]) === q) r = 0;
      if (r >= 0) out.push([r, 'API', a[1], 'API key ' + a[0] + ' · its versions in every release', root + 'matrix/' + a[1] + '.html']);
    });
    X.f.forEach(function (f) {
      var r = rank(f[0], q);
      if (r < 0) return;
      f[1].forEach(function (h) {
        var api = X.a[h[0]][1], side = h[1] ? 'response' : 'request';
        out.push([r + 0.1, 'Field', f[0], api + ' ' + side + ' · ' + h[2] + f[0] + ' · since v' + h[3] + ' (' + X.s[h[4]] + ')',
          page(root, X, h[0], h[5], side + '-fields')]);
      });
    });
    X.e.forEach(function (e) {
      var r = rank(e[1], q);
      if (String(e[0]) === q) r = 1;
      if (r < 0) return;
      var title = e[1] + ' (error code ' + e[0] + ')';
      if (!e[2].length) { out.push([r + 0.2, 'Error', title, 'no schema names it', '']); return; }
      e[2].forEach(function (m) {
        out.push([r + 0.2, 'Error', title, 'named in ' + X.a[m[0]][1] + "'s schemas (" + span(X, m[1], m[2]) + ')', page(root, X, m[0], m[2], '')]);
      });
    });
    X.k.forEach(function (k) {
      var r = rank(k[0], kq);
      if (r < 0) return;
      k[1].forEach(function (m) {
        out.push([r + 0.3, 'KIP', k[0], 'named in ' + X.a[m[0]][1] + "'s schemas (" + span(X, m[1], m[2]) + ')', page(root, X, m[0], m[2], '')]);
      });
    });
    out.sort(function (x, y) { return x[0] - y[0]; });
    return out;
  }
  function setup(bar) {
    var root = bar.getAttribute('data-root') || '';
    var form = bar.querySelector('form.kg-search'), box = bar.querySelector('input.kg-q'), list = bar.querySelector('.kg-results');
    if (!form || !box || !list) return;
    var sel = -1, items = [];
    function mark(i) {
      items.forEach(function (li, j) { li.classList.toggle('sel', j === i); });
      sel = i;
      if (items[i] && items[i].scrollIntoView) items[i].scrollIntoView({ block: 'nearest' });
    }
    function render() {
      var X = window.KG_INDEX;
      list.textContent = '';
      items = [];
      sel = -1;
      if (!X || !box.value.trim()) { list.hidden = true; return; }
      var res = search(root, X, box.value);
      res.slice(0, MAX).forEach(function (r) {
        var li = el('li'), a = el(r[4] ? 'a' : 'span');
        if (r[4]) a.href = r[4];
        a.appendChild(el('span', 'kind', r[1]));
        a.appendChild(document.createTextNode(r[2]));
        a.appendChild(el('span', 'sub', r[3]));
        li.appendChild(a);
        list.appendChild(li);
        items.push(li);
      });
      if (!res.length) list.appendChild(el('li', 'none', 'Nothing named “' + box.value.trim() + '” in any release.'));
      else if (res.length > MAX) list.appendChild(el('li', 'none', '… and ' + (res.length - MAX) + ' more: type more of the name.'));
      list.hidden = false;
    }
    function update() { load(root, render); }
    box.addEventListener('input', update);
    box.addEventListener('focus', function () { load(root, function () { if (box.value) render(); }); });
    box.addEventListener('keydown', function (ev) {
      if (ev.key === 'ArrowDown') { ev.preventDefault(); mark(Math.min(sel + 1, items.length - 1)); }
      else if (ev.key === 'ArrowUp') { ev.preventDefault(); mark(Math.max(sel - 1, 0)); }
      else if (ev.key === 'Escape') { list.hidden = true; }
    });
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var li = items[sel >= 0 ? sel : 0], a = li && li.querySelector('a');
      if (a) location.href = a.href;
    });
    document.addEventListener('click', function (ev) { if (!bar.contains(ev.target)) list.hidden = true; });
  }
  function start() { Array.prototype.forEach.call(document.querySelectorAll('.kg-site'), setup); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
