# phases.awk reads `go tool trace -d=parsed` of a run of reference builds (see the README's
# Speed section) and prints, for each build (the "reference build" task): its wall time, when
# the last worker finished, and for each region type the time spent in it (summed over
# goroutines) and when the last one ended, in milliseconds from the build's start.
#
#   go test ./site/reference -run XXX -bench 'BuildAllVersions$' -benchtime 3x -trace t.out
#   go tool trace -d=parsed t.out | awk -f site/reference/testdata/phases.awk
function field(name,    m) {
	if (match($0, name "=[^ ]+")) {
		m = substr($0, RSTART + length(name) + 1, RLENGTH - length(name) - 1)
		return m
	}
	return ""
}
function typ(    s) {
	if (match($0, /Type="[^"]*"/)) return substr($0, RSTART + 6, RLENGTH - 7)
	return ""
}
function report(    k) {
	printf "build %d: %.0f ms; last worker done at %.0f ms\n", ++n, (t1 - t0) / 1e6, (wd - t0) / 1e6
	for (k in sum) printf "  %-34s %8.0f ms in all, last ended at %6.0f ms\n", k, sum[k] / 1e6, (last[k] - t0) / 1e6
	delete sum; delete last
}
/^M=/ && / TaskBegin / && /"reference build"/ { t0 = field("Time"); next }
/^M=/ && / TaskEnd / && /"reference build"/ { t1 = field("Time"); report(); next }
/^M=/ && / Log / && /workers done/ { wd = field("Time"); next }
/^M=/ && / RegionBegin / { g = field("G"); depth[g]++; start[g, depth[g]] = field("Time"); next }
/^M=/ && / RegionEnd / {
	g = field("G"); t = field("Time"); k = typ()
	if (depth[g] > 0) { sum[k] += t - start[g, depth[g]]; depth[g]-- }
	last[k] = t
}
