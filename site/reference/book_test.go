package reference

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// bookPage is what pdftotext finds on one page of a book: the running header's title, the
// lowest text's bottom in the text area, and whether the page holds any text there.
type bookPage struct {
	title  string
	bottom float64
	text   bool
	words  []string
}

// readBook reads a built book's pages with pdftotext -bbox (poppler): the words of each page
// with their boxes, in points from the page's top.
func readBook(file string) ([]bookPage, error) {
	out, err := exec.Command("pdftotext", "-bbox", file, "-").Output()
	if err != nil {
		return nil, fmt.Errorf("pdftotext: %w", err)
	}
	dec := xml.NewDecoder(bytes.NewReader(out))
	dec.Strict = false
	var pages []bookPage
	var head []string
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch e.Name.Local {
		case "page":
			pages = append(pages, bookPage{})
			head = nil
		case "word":
			var box [4]float64
			for _, a := range e.Attr {
				i := strings.Index("xMin yMin xMax yMax", a.Name.Local)
				if i >= 0 {
					box[i/5], _ = strconv.ParseFloat(a.Value, 64)
				}
			}
			var w string
			if err := dec.DecodeElement(&w, &e); err != nil {
				return nil, err
			}
			p := &pages[len(pages)-1]
			switch {
			case box[3] < marginTop-8: // the running header
				head = append(head, w)
				p.title = strings.TrimSpace(strings.TrimPrefix(strings.Join(head, " "), "Apache Kafka 4.0 wire protocol"))
			case box[1] > pageBottom: // the footer
			default:
				p.text = true
				p.bottom = max(p.bottom, box[3])
				p.words = append(p.words, w)
			}
		}
	}
	return pages, nil
}

// book40 is the whole Kafka 4.0 book (Options{Formats: PDF}) and its pages as pdftotext
// reads them, built and read once for the tests that check it (TestBookPaper, TestBookIndex),
// into a folder TestMain removes.
var book40 struct {
	once  sync.Once
	dir   string
	file  string
	pages []bookPage
	err   error
}

// sharedBook40 returns the file of the shared 4.0 book and its pages; without pdftotext the
// test is skipped.
func sharedBook40(t *testing.T) (string, []bookPage) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed")
	}
	cat := catalog(t, "4.0")
	book40.once.Do(func() {
		book40.dir, book40.err = os.MkdirTemp("", "kafkagrid-book-")
		if book40.err != nil {
			return
		}
		if _, book40.err = Build(context.Background(), cat, book40.dir, Options{Formats: PDF}); book40.err != nil {
			return
		}
		book40.file = filepath.Join(book40.dir, BookName("4.0"))
		book40.pages, book40.err = readBook(book40.file)
	})
	if book40.err != nil {
		t.Fatal(book40.err)
	}
	return book40.file, book40.pages
}

// pageBottom is the lowest y of an A4 book's text area.
const pageBottom = 842 - marginBottom

// bookReport measures a book as a reader would judge its paper: its pages, those ending above
// half their text area that do not end a chapter (nor the cover or contents), and the pages
// of each chapter.
type bookReport struct {
	pages     int
	halfEmpty []int // page numbers
	perTitle  map[string]int
	titles    []string // in order
}

func measureBook(pages []bookPage) bookReport {
	r := bookReport{pages: len(pages), perTitle: map[string]int{}}
	half := marginTop + (pageBottom-marginTop)/2
	for i, p := range pages {
		if _, ok := r.perTitle[p.title]; !ok {
			r.titles = append(r.titles, p.title)
		}
		r.perTitle[p.title]++
		chapterEnd := i+1 == len(pages) || pages[i+1].title != p.title
		if i == 0 || p.title == "Contents" || chapterEnd {
			continue
		}
		if p.bottom < half {
			r.halfEmpty = append(r.halfEmpty, i+1)
		}
	}
	return r
}

// TestBookPaper builds the Kafka 4.0 book and checks that no page but a chapter's last ends
// above half its text area; with -v it reports the page count and the pages of each API (the
// figures of issue 27).
func TestBookPaper(t *testing.T) {
	_, pages := sharedBook40(t)
	r := measureBook(pages)
	var b strings.Builder
	for _, title := range r.titles {
		fmt.Fprintf(&b, " %s %d;", title, r.perTitle[title])
	}
	t.Logf("4.0 book: %d pages, %d ending above half their text area (not a chapter's end): %v\npages per chapter:%s",
		r.pages, len(r.halfEmpty), r.halfEmpty, b.String())
	for _, n := range r.halfEmpty {
		p := pages[n-1]
		t.Errorf("page %d (%s) ends at %.0f pt, above half its text area; last words %q", n, p.title, p.bottom, p.words[max(0, len(p.words)-6):])
	}
}

// indexLine is an index entry as pdftotext -layout prints it: a name, then its page runs.
var indexLine = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*) ([0-9]+)(?:[–,][0-9–, ]*)?$`)

// TestBookIndex builds the Kafka 4.0 book and checks its index against its pages: an API's
// first page number is the first page of its chapter, and the page a field's or an error's
// first number names shows that name (an error: that page or the next, where a grid's legend
// or the tree carries it).
func TestBookIndex(t *testing.T) {
	cat := catalog(t, "4.0")
	file, pages := sharedBook40(t)
	first := 0
	for i, p := range pages {
		if p.title == indexTitle {
			first = i
			break
		}
	}
	if first == 0 {
		t.Fatal("the book has no index")
	}
	chapter := map[string]int{}
	for i, p := range pages {
		if _, ok := chapter[p.title]; !ok {
			chapter[p.title] = i + 1
		}
	}
	apis := map[string]bool{}
	for _, a := range cat.APIs {
		apis[a.Name] = true
	}
	txt, err := exec.Command("pdftotext", "-layout", "-f", strconv.Itoa(first+1), file, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	split := regexp.MustCompile(`\s{3,}`)
	checked := map[indexKind]int{}
	for _, line := range strings.Split(string(txt), "\n") {
		for _, cell := range split.Split(strings.TrimSpace(line), -1) {
			m := indexLine.FindStringSubmatch(cell)
			if m == nil {
				continue
			}
			name := m[1]
			n, _ := strconv.Atoi(m[2])
			if n < 1 || n > len(pages) {
				t.Errorf("index: %s on page %d of %d", name, n, len(pages))
				continue
			}
			shows := func(p int) bool {
				return p <= len(pages) && slices.ContainsFunc(pages[p-1].words, func(w string) bool { return strings.Contains(w, name) })
			}
			switch {
			case apis[name] && chapter[name] != 0:
				checked[indexAPI]++
				// A name that is an API's and a field's (Metadata) has two entries.
				if n != chapter[name] && !shows(n) {
					t.Errorf("index: API %s on page %d, its chapter starts on %d", name, n, chapter[name])
				}
			case strings.ToUpper(name) == name && strings.Contains(name, "_"):
				checked[indexError]++
				if !shows(n) && !shows(n+1) {
					t.Errorf("index: error %s on page %d, not there nor on the next", name, n)
				}
			default:
				checked[indexField]++
				if !shows(n) {
					t.Errorf("index: field %s on page %d, not there", name, n)
				}
			}
		}
	}
	t.Logf("index checked: %d APIs, %d fields, %d errors", checked[indexAPI], checked[indexField], checked[indexError])
	if checked[indexAPI] < len(cat.APIs)*9/10 || checked[indexField] < 200 || checked[indexError] == 0 {
		t.Errorf("index: read %v entries, fewer than the book has", checked)
	}
}

// TestMessageDiff checks what an edge case's listing says it changes in the example: values
// that differ by path, in the case's byte order, then the fields only the example has.
func TestMessageDiff(t *testing.T) {
	base := &message{Fields: []fieldInfo{
		{Path: "#size", Value: "20 bytes"},
		{Path: "Name", Value: `"orders"`},
		{Path: "Name#length", Value: "7 → length 6"},
		{Path: "Gone", Value: "1"},
		{Path: "Same", Value: "5"},
	}}
	tests := []struct {
		name   string
		fields []fieldInfo
		want   []fieldDiff
	}{
		{"same", base.Fields, nil},
		{"one value", []fieldInfo{{Path: "#size", Value: "20 bytes"}, {Path: "Name", Value: `"refund"`, Offset: 9}, {Path: "Name#length", Value: "7 → length 6"}, {Path: "Gone", Value: "1"}, {Path: "Same", Value: "5"}},
			[]fieldDiff{{Path: "Name", Offset: 9, Was: `"orders"`, Now: `"refund"`}}},
		{"added and removed", []fieldInfo{{Path: "#size", Value: "21 bytes", Offset: 0}, {Path: "Name", Value: `"orders"`}, {Path: "Name#length", Value: "7 → length 6"}, {Path: "Same", Value: "5"}, {Path: "New", Shown: "New (shown)", Offset: 19}},
			[]fieldDiff{{Path: "#size", Offset: 0, Was: "20 bytes", Now: "21 bytes"}, {Path: "New (shown)", Offset: 19, Now: "(no value)"}, {Path: "Gone", Offset: -1, Was: "1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := messageDiff(base, &message{Fields: tt.fields})
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("messageDiff = %v\nwant %v", got, tt.want)
			}
		})
	}
	if smallDiff(nil, base) || !smallDiff(make([]fieldDiff, 1), base) || smallDiff(make([]fieldDiff, 2), base) {
		t.Error("smallDiff: want a listing for 1 changed field of 5, not for none or 2")
	}
}

// TestBookSameBytes checks that the book is the same bytes whatever the number of workers
// laying out its chapters' drawings (and so of the cores compressing its pages).
func TestBookSameBytes(t *testing.T) {
	cat := catalog(t, "4.0")
	var books [][]byte
	for _, workers := range []int{1, 4} {
		out := t.TempDir()
		if _, err := Build(context.Background(), cat, out, Options{Formats: PDF, Workers: workers, APIs: []string{"Produce", "Fetch", "ApiVersions", "DescribeConfigs"}}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, BookName("4.0")))
		if err != nil {
			t.Fatal(err)
		}
		books = append(books, b)
	}
	if !bytes.Equal(books[0], books[1]) {
		t.Errorf("the book differs with 1 and 4 workers (%d and %d bytes)", len(books[0]), len(books[1]))
	}
}

// TestTableBreaks: rows go on to a new page when they do not fit, and no page holds one row
// of a table of more where that can be helped: the first row alone at a page's bottom moves
// the table on, the last row alone on a page takes the one before with it.
func TestTableBreaks(t *testing.T) {
	rows := func(n int, h float64) []float64 {
		hs := make([]float64, n)
		for i := range hs {
			hs[i] = h
		}
		return hs
	}
	for _, c := range []struct {
		name            string
		hs              []float64
		y, bottom, room float64
		want            []int // the rows a page starts at, after the first
	}{
		{"fits", rows(5, 10), 0, 100, 100, nil},
		{"plain break", rows(12, 10), 0, 100, 100, []int{10}},
		{"first row alone at the bottom", rows(5, 10), 85, 100, 100, []int{0}},
		{"one row in all stays", rows(1, 10), 85, 100, 100, nil},
		{"last row alone takes one with it", rows(11, 10), 0, 100, 100, []int{9}},
		{"last row alone, two on the page: kept", rows(3, 10), 75, 100, 100, []int{2}},
		{"two pages, last row alone", rows(21, 10), 0, 100, 100, []int{10, 19}},
		{"a tall row on its own page", []float64{10, 10, 95, 10, 10}, 0, 100, 100, []int{2, 3}},
	} {
		b := tableBreaks(c.hs, c.y, c.bottom, c.room)
		var got []int
		for i, x := range b {
			if x {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: breaks before %v, want %v", c.name, got, c.want)
		}
		// Whatever the case, a page holds what fits.
		y, start := c.y, 0
		for i, h := range c.hs {
			if b[i] {
				y, start = c.bottom-c.room, i
			}
			if y += h; y > c.bottom && i != start {
				t.Errorf("%s: row %d ends at %g, below the page's bottom %g", c.name, i, y, c.bottom)
			}
		}
	}
}
