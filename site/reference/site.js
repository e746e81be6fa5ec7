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
  // stay is the release a result links to: the page's own (cur) where the API is there and
  // first..last holds it, else last, the newest release with the thing found.
  function stay(X, api, first, last, cur) {
    return cur >= first && cur <= last && X.p[api][cur] ? cur : last;
  }
  // apiRank ranks API i's names (the newest and every older one) against q.
  function apiRank(X, i, q) {
    var a = X.a[i], r = rank(a[1], q);
    X.p[i].forEach(function (n) { if (n && n !== a[1]) { var o = rank(n, q); if (o >= 0 && (r < 0 || o < r)) r = o; } });
    if (String(a[0]) === q) r = 0;
    return r;
  }
  // versionHits finds "fetch v4", "fetch version 4", "1 v4" (an API key): the page of that
  // version in the page's release where it was built there, else in the newest release that
  // has it.
  function versionHits(root, X, q, cur, out) {
    var m = /^(.*?)\s*(?:\bv|\bversion\s*)(\d+)$/.exec(q);
    if (!m || !m[1]) return;
    var want = +m[2];
    X.a.forEach(function (a, i) {
      var r = apiRank(X, i, m[1]);
      if (r < 0) return;
      var vs = X.v[i], rel = -1;
      function has(j) { return !!vs[j] && vs[j].some(function (run) { return want <= run[0] && want >= run[1]; }); }
      if (cur >= 0 && has(cur)) rel = cur;
      for (var j = vs.length - 1; rel < 0 && j >= 0; j--) if (has(j)) rel = j;
      var name = X.p[i][rel >= 0 ? rel : 0] || a[1];
      if (rel < 0) {
        out.push([r - 0.5, 'API', a[1] + ' v' + want, 'no release here has v' + want + ' of ' + a[1] + ' · its versions in every release', root + 'matrix/' + a[1] + '.html']);
        return;
      }
      var file = vs[rel][0][0] === want ? name + '.html' : name + '-v' + want + '.html';
      var sub = 'API key ' + a[0] + ' · Kafka ' + X.r[rel] + (cur >= 0 && rel !== cur ? ' (Kafka ' + X.r[cur] + ' has no v' + want + ')' : '');
      out.push([r - 0.5, 'API', name + ' v' + want, sub, root + X.r[rel] + '/api/' + file]);
    });
  }
  // search returns the results for q: [rank, kind, title, sub, href], best first. cur is the
  // index of the page's release, -1 on the site's own pages.
  function search(root, X, raw, cur) {
    var q = raw.trim().toLowerCase().replace(/\s+/g, ' '), out = [];
    if (!q) return out;
    var kq = q.replace(/^kip[\s-]*/, 'kip-');
    versionHits(root, X, q, cur, out);
    X.a.forEach(function (a, i) {
      var r = apiRank(X, i, q);
      if (r >= 0) out.push([r, 'API', a[1], 'API key ' + a[0] + ' · its versions in every release', root + 'matrix/' + a[1] + '.html']);
    });
    X.f.forEach(function (f) {
      var r = rank(f[0], q);
      if (r < 0) return;
      f[1].forEach(function (h) {
        var api = X.a[h[0]][1], side = h[1] ? 'response' : 'request';
        out.push([r + 0.1, 'Field', f[0], api + ' ' + side + ' · ' + h[2] + f[0] + ' · since v' + h[3] + ' (' + X.s[h[4]] + ')',
          page(root, X, h[0], stay(X, h[0], h[4], h[5], cur), side + '-fields')]);
      });
    });
    X.e.forEach(function (e) {
      var r = rank(e[1], q);
      if (String(e[0]) === q) r = 1;
      if (r < 0) return;
      var title = e[1] + ' (error code ' + e[0] + ')';
      if (!e[2].length) { out.push([r + 0.2, 'Error', title, 'no schema names it', '']); return; }
      e[2].forEach(function (m) {
        out.push([r + 0.2, 'Error', title, 'named in ' + X.a[m[0]][1] + "'s schemas (" + span(X, m[1], m[2]) + ')', page(root, X, m[0], stay(X, m[0], m[1], m[2], cur), '')]);
      });
    });
    X.k.forEach(function (k) {
      var r = rank(k[0], kq);
      if (r < 0) return;
      k[1].forEach(function (m) {
        out.push([r + 0.3, 'KIP', k[0], 'named in ' + X.a[m[0]][1] + "'s schemas (" + span(X, m[1], m[2]) + ')', page(root, X, m[0], stay(X, m[0], m[1], m[2], cur), '')]);
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
      var res = search(root, X, box.value, X.r.indexOf(bar.getAttribute('data-release')));
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
  if (typeof document === 'undefined') { if (typeof module !== 'undefined') module.exports = { search: search }; return; } // node, in the tests
  function start() { Array.prototype.forEach.call(document.querySelectorAll('.kg-site'), setup); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
