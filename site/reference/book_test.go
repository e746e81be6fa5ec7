package reference

import (
	"context"
	"encoding/xml"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
func readBook(t *testing.T, file string) []bookPage {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed")
	}
	out, err := exec.Command("pdftotext", "-bbox", file, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	dec := xml.NewDecoder(strings.NewReader(string(out)))
	dec.Strict = false
	var pages []bookPage
	var head []string
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch e := tok.(type) {
		case xml.StartElement:
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
					t.Fatal(err)
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
	}
	return pages
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
	cat := catalog(t, "4.0")
	out := t.TempDir()
	if _, err := Build(context.Background(), cat, out, Options{Formats: PDF}); err != nil {
		t.Fatal(err)
	}
	pages := readBook(t, filepath.Join(out, BookName("4.0")))
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
