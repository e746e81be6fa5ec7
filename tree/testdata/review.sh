#!/bin/sh
# review.sh renders every golden SVG that a failing test left a .got.svg beside, old and new,
# to PNG under ${OUT:-/tmp/tree-review}, for review as pictures:
#   go test ./tree; sh tree/testdata/review.sh
# Needs rsvg-convert (librsvg2-bin).
set -eu
cd "$(dirname "$0")"
out=${OUT:-/tmp/tree-review}
mkdir -p "$out"
found=0
for got in *.got.svg; do
	[ -e "$got" ] || continue
	found=1
	name=${got%.got.svg}
	rsvg-convert -o "$out/$name.old.png" "$name.svg"
	rsvg-convert -o "$out/$name.new.png" "$got"
	echo "$out/$name.old.png  $out/$name.new.png"
done
[ "$found" = 1 ] || echo "no .got.svg files: the goldens match"
