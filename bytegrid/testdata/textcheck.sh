#!/bin/sh
# textcheck.sh: checks in Chromium, with a font of another advance forced (DejaVu Serif), that
# every text of every field lies inside its box and no two texts overlap, for the SVGs of
# examples/protocols/figures drawn from their specs and from their figures read as art. Needs
# chromium and python3; prints one line a drawing ("N texts, 0 problems").
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/kafkagrid" ./cmd/kafkagrid)
for f in "$root"/examples/protocols/figures/*.yaml; do
  "$tmp/kafkagrid" grid "$f" -o "$tmp/$(basename "$f" .yaml).spec.svg"
done
for f in "$root"/examples/protocols/figures/*.rfc.txt; do
  "$tmp/kafkagrid" grid "$f" -o "$tmp/$(basename "$f" .rfc.txt).art.svg"
done
python3 - "$tmp" <<'PY'
import glob, os, sys
tmp = sys.argv[1]
parts = []
for f in sorted(glob.glob(tmp + '/*.svg')):
    s = open(f).read()
    parts.append('<div data-file="%s">%s</div>' % (os.path.basename(f), s[s.index('<svg'):]))
js = r'''<script>
window.onload = () => {
  const out = [];
  for (const div of document.querySelectorAll('div[data-file]')) {
    const file = div.dataset.file, texts = [];
    let bad = 0, n = 0;
    for (const g of div.querySelectorAll('g.field')) {
      const rects = [...g.querySelectorAll('rect')].map(r => r.getBoundingClientRect()).filter(r => r.height > 10);
      for (const t of g.querySelectorAll('text')) {
        n++;
        const b = t.getBoundingClientRect();
        if (!rects.some(r => b.left >= r.left-1 && b.right <= r.right+1 && b.top >= r.top-1 && b.bottom <= r.bottom+1)) {
          bad++; out.push(file + ': outside its box: ' + t.textContent);
        }
        texts.push([b, t.textContent]);
      }
    }
    for (let i = 0; i < texts.length; i++) for (let j = i+1; j < texts.length; j++) {
      const a = texts[i][0], b = texts[j][0];
      if (a.left < b.right-1 && b.left < a.right-1 && a.top < b.bottom-1 && b.top < a.bottom-1) {
        bad++; out.push(file + ': overlap: ' + texts[i][1] + ' / ' + texts[j][1]);
      }
    }
    out.push(file + ': ' + n + ' texts, ' + bad + ' problems');
  }
  const pre = document.createElement('pre'); pre.id = 'result'; pre.textContent = out.join('\n'); document.body.prepend(pre);
};
</script>'''
open(tmp + '/check.html', 'w').write('<!doctype html><meta charset="utf-8"><style>text{font-family:"DejaVu Serif",serif !important}</style><body>' + ''.join(parts) + js)
PY
chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 --dump-dom "file://$tmp/check.html" 2>/dev/null |
  python3 -c 'import sys, re, html; m = re.search(r"<pre id=\"result\">(.*?)</pre>", sys.stdin.read(), re.S); print(html.unescape(m.group(1)) if m else "no result")'
