// Package gridpdf draws byte-grid diagrams into PDF documents (codeberg.org/go-pdf/fpdf) through
// canvas/pdfcanvas: Draw places a diagram, or part of one, in a rectangle of a page; WritePDF
// writes a whole diagram as a document of A4 pages, continuing a tall grid on the next page
// between rows (never mid-field where a cut between fields exists).
package gridpdf

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
)

// Draw paints display rows [from, to) of d (see bytegrid.Diagram.PaintRows) with the drawing's
// top-left corner at (x, y) of pdf's current page, scaled to width (in the document's units,
// which should be points; 0 means natural size). It returns the height drawn. Go Mono must
// be registered with pdfcanvas.RegisterFonts.
func Draw(pdf *fpdf.Fpdf, d *bytegrid.Diagram, from, to int, x, y, width float64) (float64, error) {
	scale := 1.0
	if width > 0 && d.Width > 0 {
		scale = width / float64(d.Width)
	}
	c := pdfcanvas.New(pdf, x, y, scale, pdfcanvas.Options{})
	d.PaintRows(c, from, to)
	if err := c.Close(); err != nil {
		return 0, fmt.Errorf("gridpdf: %w", err)
	}
	return float64(d.PartHeight(from, to)) * scale, nil
}

// Options configure WritePDF.
type Options struct {
	Title string
	// Date is the document's creation and modification date. The zero value means
	// SOURCE_DATE_EPOCH when set, else 2000-01-01 UTC, so output does not depend on the clock.
	Date time.Time
}

// A4 in points, and the page margin.
const (
	pageW, pageH = 595.28, 841.89
	pageMargin   = 36.0
)

// WritePDF writes d to w as a PDF of A4 pages: the grid is scaled down to the page width if it
// is wider, and continued on further pages (the ruler repeated) if it is taller.
func WritePDF(w io.Writer, d *bytegrid.Diagram, opts Options) error {
	pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: pageW, Ht: pageH}})
	pdf.SetCatalogSort(true)
	date := opts.Date
	if date.IsZero() {
		date = defaultDate()
	}
	pdf.SetCreationDate(date)
	pdf.SetModificationDate(date)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetMargins(pageMargin, pageMargin, pageMargin)
	if opts.Title != "" {
		pdf.SetTitle(opts.Title, true)
	}
	pdf.SetCreator("kafkagrid", true)
	if err := pdfcanvas.RegisterFonts(pdf); err != nil {
		return fmt.Errorf("gridpdf: %w", err)
	}
	availW, availH := pageW-2*pageMargin, pageH-2*pageMargin
	scale := 1.0
	if float64(d.Width) > availW {
		scale = availW / float64(d.Width)
	}
	cuts := d.CutRows(canvas.Pt(availH / scale))
	bounds := append(append([]int{0}, cuts...), len(d.Rows))
	for i := 0; i+1 < len(bounds); i++ {
		pdf.AddPage()
		if _, err := Draw(pdf, d, bounds[i], bounds[i+1], pageMargin, pageMargin, float64(d.Width)*scale); err != nil {
			return err
		}
	}
	if err := pdf.Output(w); err != nil {
		return fmt.Errorf("gridpdf: %w", err)
	}
	return nil
}

func defaultDate() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(v, 0).UTC()
		}
	}
	return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
}
