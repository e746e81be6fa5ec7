package reference

// primitivesChapter prints the primitive types (primitives) as a chapter of its own, after
// How to read: for each, its heading, what it is, its table and its byte grid.
func (bk *book) primitivesChapter(ps []primitive) {
	if len(ps) == 0 {
		return
	}
	bk.y = bk.frontChapter(primitivesTitle) + 40
	const size, lead = 9.5, 13.5
	for _, p := range ps {
		bk.font(sansFont, "", size)
		about := bk.pdf.SplitText(p.About, bk.cw)
		// The heading, the text and the table stay together, with room for a first grid row.
		keep := lead*float64(len(about)) + 14*float64(len(p.Rows)+1) + 80
		bk.section(p.Title, "", keep)
		bk.pdf.Bookmark(p.Title, 1, bk.y-24)
		bk.indexAt(indexPrimitive, p.Title)
		bk.font(sansFont, "", size)
		bk.color(colInk)
		for _, l := range about {
			bk.text(marginX, bk.y, l, size)
			bk.y += lead
		}
		bk.y += 4
		if len(p.Rows) > 0 {
			const col = 170.0
			bk.font(sansFont, "B", headSize)
			bk.color(colMuted)
			bk.text(marginX, bk.y, p.Heads[0], headSize)
			bk.text(marginX+col, bk.y, p.Heads[1], headSize)
			bk.y += 11
			bk.rule(bk.y - 2)
			for _, r := range p.Rows {
				bk.font(sansFont, "", 8.5)
				bk.color(colInk)
				bk.text(marginX, bk.y+1, bk.fit(r[0], col-8), 8.5)
				bk.font(monoFont, "", 8)
				bk.text(marginX+col, bk.y+1.5, bk.fit(r[1], bk.cw-col), 8)
				bk.y += 13
				bk.rule(bk.y - 2)
			}
			bk.y += 10
		}
		bk.place(p.Caption, p.Grid, 0)
		bk.y += 4
	}
}
