package pdfcanvas

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/style"
)

// DefaultDate is the creation and modification date of every PDF made without a date of its
// own (SOURCE_DATE_EPOCH unset): a fixed date, so output never depends on the clock.
func DefaultDate() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) }

// maxEpoch is the last second a PDF date can hold (D:99991231235959Z, PDF 1.7 section 7.9.4).
const maxEpoch = 253402300799

// ErrSourceDate is the error SourceDate wraps for a value it cannot use.
var ErrSourceDate = errors.New("SOURCE_DATE_EPOCH: want whole seconds since 1970-01-01 UTC, up to the year 9999")

// SourceDate is the one date rule of every PDF: epoch is the value of SOURCE_DATE_EPOCH
// (https://reproducible-builds.org/specs/source-date-epoch/), read by the caller; empty means
// DefaultDate. A value that is not a whole number of seconds from 0 to the end of the year
// 9999 (the range of a PDF date) is an error wrapping ErrSourceDate, for every verb alike.
func SourceDate(epoch string) (time.Time, error) {
	if epoch == "" {
		return DefaultDate(), nil
	}
	v, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil || v < 0 || v > maxEpoch {
		return time.Time{}, fmt.Errorf("%w (got %q)", ErrSourceDate, epoch)
	}
	return time.Unix(v, 0).UTC(), nil
}

// A4 in points, and the margin Write leaves around a drawing.
const (
	A4Width, A4Height = 595.28, 841.89
	Margin            = 36.0
)

// DocOptions configure NewDocument and Write. The zero value is an untitled A4 document dated
// DefaultDate.
type DocOptions struct {
	// Width and Height are the page size in points; zero means A4.
	Width, Height float64
	// Title and Subject go into the document's information dictionary.
	Title, Subject string
	// Date is the creation and modification date; zero means DefaultDate (see SourceDate).
	Date time.Time
	// Palette chooses the colours of roles (Write); nil is the default palette.
	Palette style.Palette
}

// NewDocument returns a document set up the one way every PDF of kafkagrid is: units in
// points, pages of the given size, objects in a fixed order (SetCatalogSort), the given date,
// no automatic page break (drawings are placed, see Place), creator and producer named, and Go
// Mono registered under MonoFamily (RegisterFonts). It has no page yet.
func NewDocument(o DocOptions) (*fpdf.Fpdf, error) {
	w, h := o.Width, o.Height
	if w <= 0 || h <= 0 {
		w, h = A4Width, A4Height
	}
	pdf := fpdf.NewCustom(&fpdf.InitType{OrientationStr: "P", UnitStr: "pt", Size: fpdf.SizeType{Wd: w, Ht: h}})
	pdf.SetCatalogSort(true)
	date := o.Date
	if date.IsZero() {
		date = DefaultDate()
	}
	pdf.SetCreationDate(date)
	pdf.SetModificationDate(date)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetMargins(Margin, Margin, Margin)
	if o.Title != "" {
		pdf.SetTitle(o.Title, true)
	}
	if o.Subject != "" {
		pdf.SetSubject(o.Subject, true)
	}
	pdf.SetCreator("kafkagrid", true)
	pdf.SetProducer("kafkagrid (codeberg.org/go-pdf/fpdf)", true)
	if err := RegisterFonts(pdf); err != nil {
		return nil, err
	}
	return pdf, nil
}

// Placement says where and how Place paints a drawing.
type Placement struct {
	// Rows is the run of rows to paint; the zero Span means all of them.
	Rows canvas.Span
	// X and Y are the top-left corner of the part on the current page, in points.
	X, Y float64
	// Scale multiplies every length; 0 means 1.
	Scale float64
	// Options choose the font and the colours (see Options).
	Options
}

// Place paints d, or the rows at.Rows of it, on the current page of pdf, and returns the
// height drawn, in points.
func Place(pdf *fpdf.Fpdf, d canvas.Drawing, at Placement) (float64, error) {
	scale := at.Scale
	if scale == 0 {
		scale = 1
	}
	rows := at.Rows
	if rows == (canvas.Span{}) {
		rows.To = d.NumRows()
	}
	c := New(pdf, at.X, at.Y, scale, at.Options)
	d.PaintRows(c, rows.From, rows.To)
	if err := c.Close(); err != nil {
		return 0, err
	}
	return float64(d.PartHeight(rows.From, rows.To)) * scale, nil
}

// Write writes d to w as a document of its own (see NewDocument): d is scaled down to the
// width between the margins when wider, and continued on further pages, its heading repeated,
// where it is taller than a page (canvas.Paginate).
func Write(w io.Writer, d canvas.Drawing, o DocOptions) error {
	pdf, err := NewDocument(o)
	if err != nil {
		return err
	}
	pw, ph := pdf.GetPageSize()
	availW, availH := pw-2*Margin, ph-2*Margin
	dw, _ := d.Size()
	scale := 1.0
	if float64(dw) > availW {
		scale = availW / float64(dw)
	}
	room := canvas.Pt(availH / scale)
	parts := canvas.Paginate(d, room, room)
	if len(parts) == 0 {
		parts = []canvas.Span{{}} // a drawing without rows: its heading on one page
	}
	for _, part := range parts {
		pdf.AddPage()
		at := Placement{Rows: part, X: Margin, Y: Margin, Scale: scale, Options: Options{Palette: o.Palette}}
		if _, err := Place(pdf, d, at); err != nil {
			return err
		}
	}
	if err := Output(pdf, w); err != nil {
		return fmt.Errorf("pdfcanvas: %w", err)
	}
	return nil
}
