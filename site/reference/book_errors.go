package reference

import (
	"strconv"
	"strings"
)

// errorsTitle is the title of the book's chapter of error codes, after the APIs'.
const errorsTitle = "Error codes"

// Error-code table measures: the columns' widths (the description takes the rest).
const (
	errCodeW  = 30.0
	errNameW  = 176.0
	errRetryW = 44.0
)

// errorsChapter prints every error code (rows, errorCodeRows) as a chapter of its own: its
// number, name, whether a client may retry, what it means and the APIs whose response can
// carry it, as errors.html has them; a table whose rows are kept whole, its heads repeated on
// a new page.
func (bk *book) errorsChapter(rows []errorCodeRow) {
	if len(rows) == 0 {
		return
	}
	y := bk.frontChapter(errorsTitle) + 34
	const size, lead = 9.5, 13.5
	bk.font(sansFont, "", size)
	bk.color(colInk)
	bk.y = bk.wrap(marginX, y, bk.cw, "Every error code of the Kafka protocol: the number an ErrorCode field carries (int16), its name, "+
		"whether a client may retry the request that got it, and what it means; then the APIs whose response can carry it: "+
		"those whose response schema names it; marked K, those for which Kafka's code lists it: the API's response class "+
		"as possible, else Kafka's Admin client as anticipated or the broker's or controller's handler as sent "+
		"(errors.html names the file for each API); marked F, for the APIs none of those covers, those franz-go's "+
		"kmsg documents as returned. "+
		"A response can carry codes neither names, UNKNOWN_SERVER_ERROR above all.", size, lead) + 8
	xs := []float64{0, errCodeW + fieldGap, errCodeW + errNameW + 2*fieldGap, errCodeW + errNameW + errRetryW + 3*fieldGap}
	descW := bk.cw - xs[3]
	type row struct{ name, desc []string }
	laid := make([]row, len(rows))
	hs := make([]float64, len(rows))
	for i, r := range rows {
		var by []string
		for _, a := range r.APIs {
			by = append(by, a.Name)
		}
		for _, a := range r.Listed {
			by = append(by, a.Name+" ("+a.Mark+")")
		}
		bk.font(sansFont, "", fieldSans)
		desc := bk.pdf.SplitText(r.Description, descW)
		if len(by) > 0 {
			desc = append(desc, bk.pdf.SplitText("Returned by: "+strings.Join(by, ", "), descW)...)
		}
		laid[i] = row{wrapName(r.Name, errNameW), desc}
		hs[i] = float64(max(len(laid[i].name), len(desc), 1))*fieldLead + fieldRowPad + 1.5
	}
	heads := func() {
		bk.font(sansFont, "B", headSize)
		bk.color(colMuted)
		for i, h := range []string{"Code", "Name", "Retriable", "What it means"} {
			bk.text(marginX+xs[i], bk.y, h, headSize)
		}
		bk.y += fieldHeadH - 3
		bk.rule(bk.y - 2)
	}
	breaks := tableBreaks(hs, bk.y+fieldHeadH-3, bk.bottom, bk.bottom-marginTop-(fieldHeadH-3))
	if breaks[0] {
		bk.newPage(errorsTitle)
	}
	heads()
	for i, r := range rows {
		if i > 0 && breaks[i] {
			bk.newPage(errorsTitle)
			heads()
		}
		bk.color(colInk)
		bk.font(monoFont, "", fieldMono)
		bk.text(marginX, bk.y+1.5, strconv.Itoa(int(r.Code)), fieldMono)
		for k, l := range laid[i].name {
			bk.text(marginX+xs[1], bk.y+1.5+float64(k)*fieldLead, l, fieldMono)
		}
		bk.font(sansFont, "", fieldSans)
		retry := "no"
		if r.Retriable {
			retry = "yes"
		}
		bk.text(marginX+xs[2], bk.y+1.5, retry, fieldSans)
		nd := len(bk.pdf.SplitText(r.Description, descW))
		for k, l := range laid[i].desc {
			if k >= nd {
				bk.color(colMuted)
			}
			bk.text(marginX+xs[3], bk.y+1.5+float64(k)*fieldLead, l, fieldSans)
		}
		bk.y += hs[i]
		bk.rule(bk.y - 2.5)
	}
	bk.y += 12
}

// listSource is the mark of where the error list of the API named api comes from (errorList):
// " (K)" Kafka's code, " (F)" franz-go's kmsg docs.
func listSource(api string) string {
	if _, from := errorList(api); strings.HasPrefix(from, "franz-go") {
		return " (F)"
	}
	return " (K)"
}

// wrapName cuts an error's name into lines that fit w at the table's mono size, after an
// underscore where one falls in a line's second half.
func wrapName(s string, w float64) []string {
	cols := max(1, int(w/(0.6*fieldMono)))
	var out []string
	for len(s) > cols {
		cut := cols
		if i := strings.LastIndexByte(s[:cols], '_'); i >= cols/2 {
			cut = i + 1
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}
