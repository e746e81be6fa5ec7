package pdfcanvas

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"codeberg.org/go-pdf/fpdf"
)

// Output writes pdf to w: the same bytes as pdf.Output, at less cost for a long document.
//
// fpdf compresses each page's content stream with a zlib writer of its own (about 1.2 MB of
// state, made and dropped per page: half of what a 600-page book allocates), one page after
// the other, and has no way to be given a writer. Output has fpdf write the pages
// uncompressed instead, then compresses their content streams itself, as fpdf would (zlib at
// BestSpeed, the same dictionary entries), with one writer per core, each reset from page to
// page, and rewrites the cross-reference table for the new offsets. Every other object (fonts,
// outlines, links) is copied as fpdf wrote it. When pdf has compression turned off, Output is
// pdf.Output.
func Output(pdf *fpdf.Fpdf, w io.Writer) error {
	if !pdf.GetCompression() {
		return pdf.Output(w)
	}
	pdf.SetCompression(false)
	defer pdf.SetCompression(true)
	var raw keep
	if err := pdf.Output(&raw); err != nil {
		return err
	}
	doc, err := compressContents(raw.b, runtime.GOMAXPROCS(0))
	if err != nil {
		return err
	}
	_, err = w.Write(doc)
	return err
}

// keep is a writer that keeps what it is given. fpdf's Output hands over its whole finished
// buffer in one Write and never touches it again, so keep holds on to that slice rather than
// copying it: the uncompressed document (tens of MB for a book) is held once, not twice. A
// later Write appends to a clipped copy, never into the writer's spare capacity.
type keep struct{ b []byte }

func (k *keep) Write(p []byte) (int, error) {
	if k.b == nil {
		k.b = slices.Clip(p)
	} else {
		k.b = append(k.b, p...)
	}
	return len(p), nil
}

// object is one indirect object of a document: its number and where it lies.
type object struct {
	num        int
	start, end int
}

// compressContents returns doc, a PDF as fpdf writes it with compression off, with the content
// stream of every page compressed (workers at a time) as fpdf writes it with compression on.
func compressContents(doc []byte, workers int) ([]byte, error) {
	objs, xref, err := objects(doc)
	if err != nil {
		return nil, err
	}
	// The pages' content streams: the objects a page dictionary names as its /Contents.
	contents := map[int]bool{}
	for _, o := range objs {
		body := doc[o.start:o.end]
		head := []byte(strconv.Itoa(o.num) + " 0 obj\n<</Type /Page\n")
		if !bytes.HasPrefix(body, head) {
			continue
		}
		i := bytes.Index(body, []byte("/Contents "))
		if i < 0 {
			return nil, fmt.Errorf("pdfcanvas: output: page object %d at offset %d has no /Contents", o.num, o.start)
		}
		rest := body[i+len("/Contents "):]
		j := bytes.Index(rest, []byte(" 0 R>>"))
		n, err := strconv.Atoi(string(rest[:max(j, 0)]))
		if j < 0 || err != nil {
			return nil, fmt.Errorf("pdfcanvas: output: page object %d at offset %d: unreadable /Contents", o.num, o.start)
		}
		contents[n] = true
	}
	type job struct {
		o    object
		data []byte // the stream's bytes, uncompressed
		out  bytes.Buffer
	}
	var jobs []*job
	for _, o := range objs {
		if !contents[o.num] {
			continue
		}
		data, err := plainStream(doc[o.start:o.end], o.num)
		if err != nil {
			return nil, fmt.Errorf("pdfcanvas: output: object %d at offset %d: %w", o.num, o.start, err)
		}
		jobs = append(jobs, &job{o: o, data: data})
	}
	if len(jobs) != len(contents) {
		return nil, fmt.Errorf("pdfcanvas: output: %d pages name %d content streams", len(contents), len(jobs))
	}
	// Each worker compresses every workers-th stream with its own reused writer.
	workers = max(1, min(workers, len(jobs)))
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var zw *zlib.Writer
			for i := k; i < len(jobs); i += workers {
				jb := jobs[i]
				jb.out.Grow(len(jb.data) / 2)
				if zw == nil {
					var err error
					if zw, err = zlib.NewWriterLevel(&jb.out, zlib.BestSpeed); err != nil {
						errs[k] = err
						return
					}
				} else {
					zw.Reset(&jb.out)
				}
				if _, err := zw.Write(jb.data); err != nil {
					errs[k] = err
					return
				}
				if err := zw.Close(); err != nil {
					errs[k] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("pdfcanvas: output: compress: %w", err)
		}
	}
	// The document again, object by object, with the new offsets.
	out := bytes.NewBuffer(make([]byte, 0, len(doc)/2))
	offsets := make([]int, len(objs)+1)
	at := 0 // the next byte of doc to copy
	next := 0
	for _, o := range objs {
		out.Write(doc[at:o.start])
		offsets[o.num] = out.Len()
		if next < len(jobs) && jobs[next].o.num == o.num {
			z := jobs[next].out.Bytes()
			fmt.Fprintf(out, "%d 0 obj\n<</Filter /FlateDecode /Length %d>>\nstream\n", o.num, len(z))
			out.Write(z)
			out.WriteString("\nendstream\nendobj\n")
			next++
		} else {
			out.Write(doc[o.start:o.end])
		}
		at = o.end
	}
	out.Write(doc[at:xref.start])
	x := out.Len()
	fmt.Fprintf(out, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets[1:] {
		fmt.Fprintf(out, "%010d 00000 n \n", off)
	}
	out.Write(doc[xref.end:xref.trailerEnd])
	fmt.Fprintf(out, "startxref\n%d\n%%%%EOF\n", x)
	return out.Bytes(), nil
}

// xrefTable is where a document's cross-reference table lies: from "xref" to its last entry
// (end), and the trailer after it up to "startxref" (trailerEnd).
type xrefTable struct {
	start, end, trailerEnd int
}

// objects reads the cross-reference table at the end of doc and returns its objects in the
// order they lie in doc, each running to the next one (the last to the table).
func objects(doc []byte) ([]object, xrefTable, error) {
	var x xrefTable
	bad := func(off int, what string) ([]object, xrefTable, error) {
		return nil, x, fmt.Errorf("pdfcanvas: output: offset %d: %s", off, what)
	}
	const tail = "%%EOF\n"
	if !bytes.HasSuffix(doc, []byte(tail)) {
		return bad(len(doc), "no %%EOF at the end")
	}
	sx := bytes.LastIndex(doc, []byte("startxref\n"))
	if sx < 0 {
		return bad(len(doc), "no startxref")
	}
	x.trailerEnd = sx
	o, err := strconv.Atoi(string(bytes.TrimSpace(doc[sx+len("startxref\n") : len(doc)-len(tail)])))
	if err != nil || o < 0 || o >= sx || !bytes.HasPrefix(doc[o:], []byte("xref\n0 ")) {
		return bad(sx, "startxref does not point at an xref table")
	}
	x.start = o
	p := o + len("xref\n0 ")
	nl := bytes.IndexByte(doc[p:], '\n')
	if nl < 0 {
		return bad(p, "xref: no count")
	}
	count, err := strconv.Atoi(string(doc[p : p+nl]))
	p += nl + 1
	const entry = 20 // "0000000123 00000 n \n"
	if err != nil || count < 1 || p+count*entry > sx {
		return bad(p, "xref: bad count")
	}
	p += entry // object 0, the free list's head
	objs := make([]object, count-1)
	for i := range objs {
		e := doc[p : p+entry]
		off, err := strconv.Atoi(string(e[:10]))
		if err != nil || string(e[10:]) != " 00000 n \n" || off < 0 || off >= o {
			return bad(p, "xref: bad entry")
		}
		objs[i] = object{num: i + 1, start: off}
		p += entry
	}
	x.end = p
	// fpdf writes most objects in number order, not all (the page tree after the pages).
	slices.SortFunc(objs, func(a, b object) int { return a.start - b.start })
	for i := range objs {
		end := o
		if i+1 < len(objs) {
			end = objs[i+1].start
		}
		if end <= objs[i].start {
			return bad(objs[i].start, "xref: two objects at one offset")
		}
		objs[i].end = end
		if !bytes.HasPrefix(doc[objs[i].start:], []byte(strconv.Itoa(objs[i].num)+" 0 obj\n")) {
			return bad(objs[i].start, "xref: object "+strconv.Itoa(objs[i].num)+" is not there")
		}
	}
	return objs, x, nil
}

// plainStream returns the data of an uncompressed stream object as fpdf writes it: "N 0 obj",
// "<</Length L>>", "stream", L bytes, "endstream", "endobj", each on a line.
func plainStream(body []byte, num int) ([]byte, error) {
	head := strconv.Itoa(num) + " 0 obj\n<</Length "
	if !bytes.HasPrefix(body, []byte(head)) {
		return nil, fmt.Errorf("not an uncompressed stream")
	}
	p := len(head)
	e := bytes.Index(body[p:], []byte(">>\nstream\n"))
	if e < 0 {
		return nil, fmt.Errorf("no stream after its dictionary")
	}
	n, err := strconv.Atoi(string(body[p : p+e]))
	p += e + len(">>\nstream\n")
	const foot = "\nendstream\nendobj\n"
	if err != nil || n < 0 || p+n+len(foot) != len(body) || string(body[p+n:]) != foot {
		return nil, fmt.Errorf("its /Length does not match its stream")
	}
	return body[p : p+n], nil
}
