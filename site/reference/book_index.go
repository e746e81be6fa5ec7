package reference

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// indexTitle is the title of the book's last chapter, its index.
const indexTitle = "Index"

// indexKind is what an index entry names: an API, a field or an error, each set in its own
// face.
type indexKind int

const (
	indexAPI       indexKind = iota // bold: the API's chapter
	indexField                      // mono: the pages of its rows in the field tables
	indexError                      // mono: the pages of the examples that carry it
	indexPrimitive                  // bold: its section in the primitive types
)

type indexKey struct {
	kind indexKind
	name string
}

// indexAt records that name is on the current page.
func (bk *book) indexAt(kind indexKind, name string) {
	if name == "" {
		return
	}
	if bk.index == nil {
		bk.index = map[indexKey][]int{}
	}
	k := indexKey{kind, name}
	p := bk.pdf.PageNo()
	if ps := bk.index[k]; len(ps) == 0 || ps[len(ps)-1] != p {
		bk.index[k] = append(ps, p)
	}
}

// errorValue matches an error code's value as a frame shows it: "3 → UNKNOWN_TOPIC_OR_PARTITION".
var errorValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?[0-9]+ → ([A-Z][A-Z0-9_]+)$`) })

// indexErrors records the errors m carries (a non-zero error code's name) on the current page.
func (bk *book) indexErrors(m *message) {
	for _, f := range m.Fields {
		if !strings.HasSuffix(f.Name, "ErrorCode") && f.Name != "Error" {
			continue
		}
		if s := errorValue().FindStringSubmatch(f.Value); s != nil && !strings.HasPrefix(f.Value, "0 ") {
			bk.indexAt(indexError, s[1])
		}
	}
}

// pageRuns writes sorted page numbers as runs: "4, 9–11, 30"; each run with its first page.
func pageRuns(ps []int) (texts []string, firsts []int) {
	for i := 0; i < len(ps); {
		j := i
		for j+1 < len(ps) && ps[j+1] == ps[j]+1 {
			j++
		}
		t := strconv.Itoa(ps[i])
		if j > i {
			t += "–" + strconv.Itoa(ps[j])
		}
		texts = append(texts, t)
		firsts = append(firsts, ps[i])
		i = j + 1
	}
	return texts, firsts
}

// Index measures.
const (
	indexSize   = 8.0  // entry text
	indexLead   = 10.5 // line height
	indexGutter = 18.0 // between the two columns
	indexHang   = 10.0 // continuation lines' indent
)

// indexChapter prints the index as the book's last chapter: every API (bold), field (mono) and
// error name (mono) recorded while the chapters were laid out, sorted without regard to case,
// under a heading per initial, in two columns; each page run links to its page.
func (bk *book) indexChapter() {
	if len(bk.index) == 0 {
		return
	}
	y := bk.frontChapter(indexTitle) + 34
	bk.font(sansFont, "", 9)
	bk.color(colMuted)
	y = bk.wrap(marginX, y, bk.cw, "APIs and primitive types in bold (their chapter, their section), fields in mono (their rows in the field tables) and errors in mono capitals (the examples that carry them). Each page number links to its page.", 9, 12.5) + 8
	keys := make([]indexKey, 0, len(bk.index))
	for k := range bk.index {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b indexKey) int {
		if c := strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)); c != 0 {
			return c
		}
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return int(a.kind) - int(b.kind)
	})
	colW := (bk.cw - indexGutter) / 2
	col, top := 0, y
	links := map[int]int{}
	link := func(p int) int {
		if l, ok := links[p]; ok {
			return l
		}
		l := bk.pdf.AddLink()
		bk.pdf.SetLink(l, 0, p)
		links[p] = l
		return l
	}
	// room moves to the next column or page when need points do not fit below y.
	room := func(need float64) {
		if y+need <= bk.bottom {
			return
		}
		if col == 0 {
			col, y = 1, top
			return
		}
		bk.newPage(indexTitle)
		col, y, top = 0, marginTop, marginTop
	}
	initial := ""
	for _, k := range keys {
		if in := strings.ToUpper(string([]rune(k.name)[:1])); in != initial {
			initial = in
			room(indexLead*1.6 + indexLead)
			if y > top {
				y += indexLead * 0.6
			}
			bk.font(sansFont, "B", 10)
			bk.color(colInk)
			bk.text(marginX+float64(col)*(colW+indexGutter), y, in, 10)
			y += indexLead * 1.2
		}
		texts, firsts := pageRuns(bk.index[k])
		// Lay the entry out in lines first, so that it is kept whole in its column.
		type word struct {
			x, y float64
			s    string
			page int
		}
		var words []word
		nameFont, nameStyle, nameSize := monoFont, "", indexSize-0.6
		if k.kind == indexAPI || k.kind == indexPrimitive {
			nameFont, nameStyle, nameSize = sansFont, "B", indexSize
		}
		bk.font(nameFont, nameStyle, nameSize)
		name := bk.fit(k.name, colW-30)
		x := bk.pdf.GetStringWidth(name) + 6
		ly := 0.0
		bk.font(sansFont, "", indexSize)
		for i, t := range texts {
			if i < len(texts)-1 {
				t += ","
			}
			w := bk.pdf.GetStringWidth(t)
			if x+w > colW {
				x, ly = indexHang, ly+indexLead
			}
			words = append(words, word{x, ly, t, firsts[i]})
			x += w + bk.pdf.GetStringWidth(" ")
		}
		room(ly + indexLead)
		x0 := marginX + float64(col)*(colW+indexGutter)
		bk.color(colInk)
		bk.font(nameFont, nameStyle, nameSize)
		bk.text(x0, y+(indexSize-nameSize)*0.8, name, nameSize)
		bk.font(sansFont, "", indexSize)
		bk.color(colMuted)
		for _, w := range words {
			ww := bk.text(x0+w.x, y+w.y, w.s, indexSize)
			bk.pdf.Link(x0+w.x, y+w.y-1, ww, indexLead, link(w.page))
		}
		y += ly + indexLead
	}
	bk.y = y
}
