#!/bin/sh
# review.sh: after "go test ./bytegrid" reports golden SVG differences (and wrote *.got.svg
# beside the goldens), write review.html here showing each golden and its new version side by
# side, so a change is reviewed as a picture, not only as a diff. Then accept with
# "go test ./bytegrid -update". review.html and *.got.* are git-ignored.
set -eu
cd "$(dirname "$0")"
out=review.html
{
  echo '<!doctype html><meta charset="utf-8"><title>bytegrid golden review</title>'
  echo '<style>body{font-family:sans-serif}td{vertical-align:top;padding:8px}img{max-width:48vw;border:1px solid #ccc}</style>'
  n=0
  for got in *.got.svg; do
    [ -e "$got" ] || continue
    want="${got%.got.svg}.svg"
    n=$((n + 1))
    echo "<h2>$want</h2><table><tr><th>golden</th><th>new</th></tr>"
    echo "<tr><td><img src=\"$want\"></td><td><img src=\"$got\"></td></tr></table>"
  done
  [ "$n" -gt 0 ] || echo '<p>No *.got.svg files: the goldens match.</p>'
} > "$out"
echo "wrote $(pwd)/$out ($n changed drawings)"
