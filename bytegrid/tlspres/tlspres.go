// Package tlspres reads the presentation language of TLS (RFC 8446 section 3, RFC 5246
// section 4; DTLS, QUIC's TLS and many TLS extensions use it) as byte-grid fields (package
// bytegrid), the structures drawn as RFC figures are:
//
//	uint16 ProtocolVersion;
//	opaque Random[32];
//
//	struct {
//	    ProtocolVersion legacy_version = 0x0303;    /* TLS v1.2 */
//	    Random random;
//	    opaque legacy_session_id<0..32>;
//	    CipherSuite cipher_suites<2..2^16-2>;
//	} ClientHello;
//
// # What is read
//
// A document is declarations, with /* comments */, prose and a "source:" line or "Figure
// N:" caption around them (a line that starts no declaration is prose, named in a warning):
//
//   - struct { members } Name; — its members one after the other;
//   - enum { name(N), name(A..B), …, (MAX) } Name; — as wide as the bytes that hold its
//     largest value ((255): 8 bits, (65535): 16);
//   - T Name; T Name[N]; T Name<lo..hi>; — a type named after another (uint16
//     ProtocolVersion; opaque Random[32]; opaque DistinguishedName<1..2^16-1>;).
//
// A member is
//
//   - T name: uint8, uint16, uint24, uint32, uint64 or opaque (a byte) its width; an enum
//     or a named type its width; a struct its fields in its place, in a group of its name
//     (Group, and Path "name.field");
//   - T name[N]: N elements of T (opaque r[32]: 256 bits); T name[S.length] or
//     T name[length_of_padding], whose count is another field's, a variable field (Variable,
//     LengthFrom the field named, if it is one of the structure's);
//   - T name<lo..hi>: a vector, its length prefix first, "name length", as wide as the
//     bytes that hold hi (<0..255>: 8 bits, <1..2^16-1>: 16, <0..2^24-1>: 24) (Kind Length),
//     then the elements: a variable field name (MinBits lo×8, MaxBits hi×8, LengthFrom the
//     prefix), or, when T is a struct of the document, its fields, Repeated;
//   - T name = V: with the constant V (Value);
//   - select (E) { case a: T; … } [name]; — one variable field named name, or "select (E)"
//     as printed, its cases in Desc.
//
// A variable field is drawn to the end of its row (at most its maximum), as RFC figures draw
// one, and the rows are 32 bits. The structure drawn is the one a caption names, else the one
// no other structure refers to; others that none refers to are named in a warning, or drawn
// after it with Options.All. A type neither built in nor declared is read as RFC 8446 declares
// it when it is one of that document's (ProtocolVersion, ContentType, ExtensionType,
// NamedGroup, CipherSuite, Random, …), and said in a warning; another such type is drawn as a
// variable field and warned about, never given a width it was not.
//
// Errors carry the file, line and column and say what was expected. The input is untrusted:
// at most MaxSize bytes, 1,000 members a structure, 100,000 fields, structures nested
// (not cyclically) at most 64 deep.
package tlspres

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// Spec is what Parse returns: bytegrid.Spec, the drawn structure's name, its fields, Desc
// the document's "source:" line and caption, Caption the caption ("Figure 3: …", the
// drawing's title), and Warnings.
type Spec = bytegrid.Spec

// Error is a problem in a document with its position: bytegrid.SpecError, Reader "tlspres".
type Error = bytegrid.SpecError

// MaxSize is the largest document Parse reads.
const MaxSize = 1 << 20

const (
	maxMembers = 1000
	maxFields  = 100_000
	maxDepth   = 64
	rowBits    = 32
)

// Options are how ParseOptions reads a document.
type Options struct {
	// All draws every structure no other refers to, after the root, each from a row of its
	// own under a caption of its name.
	All bool
}

// Parse reads src, named file in errors and warnings.
func Parse(file string, src []byte) (*Spec, error) { return ParseOptions(file, src, Options{}) }

// ParseOptions reads src as o says.
func ParseOptions(file string, src []byte, o Options) (*Spec, error) {
	if len(src) > MaxSize {
		return nil, &Error{Reader: "tlspres", File: file, Err: fmt.Errorf("%d bytes, more than a document may have (%d)", len(src), MaxSize)}
	}
	doc, err := readDoc(file, src)
	if err != nil {
		return nil, err
	}
	return doc.spec(o)
}

// document is what a source declares, in order, and the text around it.
type document struct {
	file            string
	decls           []*decl
	byName          map[string]*decl
	caption, source string
	warnings        []string
}

// readDoc reads the declarations of src, and the prose, caption and source line around them.
func readDoc(file string, src []byte) (*document, error) {
	p := &parser{lexer: &lexer{file: file, src: strings.TrimPrefix(string(src), "\ufeff"), line: 1, col: 1}}
	d := &document{file: file, byName: map[string]*decl{}}
	for {
		p.skipBlank()
		if p.pos >= len(p.src) {
			break
		}
		text := p.peekLine()
		if !declStartRE().MatchString(text) && !strings.HasPrefix(text, "/*") {
			d.prose(text, p.line, p.col)
			p.skipLine()
			continue
		}
		if err := p.advanceTok(); err != nil {
			return nil, err
		}
		if p.tok.text == "" {
			break
		}
		if err := d.add(p); err != nil {
			return nil, err
		}
	}
	if len(d.decls) == 0 {
		return nil, &Error{Reader: "tlspres", File: file, Line: p.line, Col: p.col, Err: fmt.Errorf("no declaration (want struct { … } Name;)")}
	}
	return d, nil
}

// add reads the declaration at p's token into d.
func (d *document) add(p *parser) error {
	x, err := p.decl()
	if err != nil {
		return err
	}
	if prev, ok := d.byName[x.name]; ok {
		return p.errAt(x.line, x.col, "%q declared again (first at line %d)", x.name, prev.line)
	}
	d.byName[x.name] = x
	d.decls = append(d.decls, x)
	// The parser read one token past the declaration: step back to it, so that the top
	// level sees its line whole.
	p.pos, p.line, p.col = p.tok.pos, p.tok.line, p.tok.col
	return nil
}

// prose records a line that starts no declaration: a caption, a source line, or prose.
func (d *document) prose(text string, line, col int) {
	switch {
	case captionRE().MatchString(text):
		if d.caption == "" {
			d.caption = text
		}
	case len(text) >= 7 && strings.EqualFold(text[:7], "source:"):
		if d.source == "" {
			d.source = strings.TrimSpace(text[7:])
		}
	default:
		d.warnings = append(d.warnings, fmt.Sprintf("%s:%d:%d: text outside the declarations, read as prose and not drawn", d.file, line, col))
	}
}

// captionRE is a figure's caption: "Figure 7: ClientHello".
var captionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i:figure|fig\.)\s+[0-9A-Za-z.-]+\s*[:.-]\s*(.*)$`)
})

// Sniff reports whether src holds a declaration of the language: a line "struct {" or
// "enum {" and a line closing one, "} Name;". Prose, a "source:" line and comments may
// stand around it.
func Sniff(src []byte) bool {
	s := string(src[:min(len(src), 64<<10)])
	open, closed := false, false
	for line := range strings.Lines(s) {
		t := strings.TrimSpace(line)
		open = open || openRE().MatchString(t)
		closed = closed || open && closeRE().MatchString(t)
		if closed {
			return true
		}
	}
	return false
}

var (
	openRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:struct|enum)\s*\{`) })
	closeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[\s;])\}\s*[A-Za-z_]\w*\s*;`) })
)
