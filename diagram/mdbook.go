package diagram

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
)

// Book is the input of an mdBook preprocessor (https://rust-lang.github.io/mdBook/for_developers/preprocessors.html):
// [context, book] as JSON, read once into a tree so that rewriting it costs its size,
// whatever the chapters' nesting.
type Book struct {
	// Root is the book's folder; Schemas and Release are book.toml's [preprocessor.kafkagrid]
	// "schemas" (made absolute against Root) and "release" keys, "" when not set; Theme its
	// "theme" key (auto, light, dark), every block's that sets none.
	Root, Schemas, Release, Theme string

	book map[string]any
}

// ReadBook reads mdBook's [context, book].
func ReadBook(input []byte) (*Book, error) {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var all []any
	if err := dec.Decode(&all); err != nil {
		return nil, fmt.Errorf("stdin: %s (want mdBook's [context, book])", jsonErrorText(input, err))
	}
	if len(all) != 2 {
		return nil, fmt.Errorf("stdin: an array of %d values; want mdBook's [context, book]", len(all))
	}
	ctx, ok := all[0].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("stdin: the context is not an object")
	}
	b := &Book{}
	b.Root, _ = ctx["root"].(string)
	if cfg, ok := ctx["config"].(map[string]any); ok {
		if pre, ok := cfg["preprocessor"].(map[string]any); ok {
			if kg, ok := pre["kafkagrid"].(map[string]any); ok {
				b.Schemas, _ = kg["schemas"].(string)
				b.Release, _ = kg["release"].(string)
				b.Theme, _ = kg["theme"].(string)
				if b.Theme != "" && !slices.Contains(svgcanvas.Themes(), b.Theme) {
					return nil, fmt.Errorf("book.toml: [preprocessor.kafkagrid] theme %q: want %s", clip(b.Theme), strings.Join(svgcanvas.Themes(), ", "))
				}
				if b.Schemas != "" && !filepath.IsAbs(b.Schemas) {
					b.Schemas = filepath.Join(b.Root, b.Schemas)
				}
			}
		}
	}
	if b.book, ok = all[1].(map[string]any); !ok {
		return nil, fmt.Errorf("stdin: the book is not an object")
	}
	return b, nil
}

// Render rewrites the book's chapters, each diagram block replaced by its inline SVG (ids
// starting with a hash of the chapter's file, unique on its page and stable), within one
// budget for the whole book (nil: DefaultBudget), and returns the book as mdBook reads it
// back. Every other member is kept (mdBook 0.4 names the list "sections", 0.5 "items").
func (d *Drawer) RenderBook(b *Book, budget *Budget) ([]byte, error) {
	if budget == nil {
		budget = DefaultBudget()
	}
	for _, key := range []string{"sections", "items"} {
		if items, ok := b.book[key].([]any); ok {
			if err := d.bookItems(items, budget, b.Theme); err != nil {
				return nil, err
			}
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b.book); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// bookItems rewrites a list of book items (chapters, separators, part titles) in place.
func (d *Drawer) bookItems(items []any, budget *Budget, theme string) error {
	for _, it := range items {
		item, ok := it.(map[string]any)
		if !ok {
			continue // "Separator"
		}
		ch, ok := item["Chapter"].(map[string]any)
		if !ok {
			continue // {"PartTitle": …}
		}
		content, _ := ch["content"].(string)
		name, _ := ch["source_path"].(string)
		if name == "" {
			name, _ = ch["path"].(string)
		}
		if name == "" {
			name, _ = ch["name"].(string)
		}
		sum := sha256.Sum256([]byte(name))
		text, _, err := d.Markdown(name, []byte(content), MarkdownOptions{Inline: true, IDBase: "kg" + hex.EncodeToString(sum[:4]), Budget: budget, Theme: theme})
		if bad, ok := errors.AsType[BadBlocks](err); ok && d.Warn != nil {
			for _, e := range bad { // the book still builds, the block shown as its source
				d.Warn(e.Error() + "\n(the block is left as it was)")
			}
		} else if err != nil {
			return err
		}
		if string(text) != content {
			ch["content"] = string(text)
		}
		if sub, ok := ch["sub_items"].([]any); ok {
			if err := d.bookItems(sub, budget, theme); err != nil {
				return err
			}
		}
	}
	return nil
}
