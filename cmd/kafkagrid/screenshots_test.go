package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// screenshots are the README's pictures of a page and of a book page: the file, and what it
// is a picture of.
var screenshots = []struct{ png, source string }{
	{"docs/page-produce.png", "api/Produce.html"},
	{"docs/book-produce.png", "kafka-4.0-protocol.pdf page " + bookProducePage},
}

// bookProducePage is the first page of Produce's chapter in the 4.0 book: after the cover, the
// contents, the three pages of how to read it, the seven of the primitive types and the cluster
// of the examples.
const bookProducePage = "14"

// TestREADMEScreenshots keeps the README's screenshots current: docs/screenshots.sha256 holds the
// hash of the page and of the book page each picture was made from, and the test fails when a
// fresh build's differ, until "go test ./cmd/kafkagrid -run TestREADMEScreenshots -update"
// makes new pictures (Chromium and pdftoppm). Pixels are not compared: fonts differ between
// machines; what the picture shows is.
func TestREADMEScreenshots(t *testing.T) {
	root := listSchemaRoot(t)
	out := t.TempDir()
	t.Setenv("KAFKA_SCHEMAS", "")
	if _, errs, code := runCmd(t, "build", "-q", "-schemas", filepath.Join(root, "4.0"), "-out", out,
		"-format", "html,pdf", "-apis", "ApiVersions,Produce"); code != 0 {
		t.Fatal(errs)
	}
	page, err := os.ReadFile(filepath.Join(out, "api", "Produce.html"))
	if err != nil {
		t.Fatal(err)
	}
	book := filepath.Join(out, "kafka-4.0-protocol.pdf")
	bookPage, err := exec.Command(needTool(t, "pdftotext"), "-f", bookProducePage, "-l", bookProducePage, "-layout", book, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for i, src := range [][]byte{page, bookPage} {
		h := sha256.Sum256(src)
		sums[screenshots[i].png] = hex.EncodeToString(h[:])
	}
	record := filepath.Join("..", "..", "docs", "screenshots.sha256")
	if testenv.Update() {
		chromium := needTool(t, "chromium")
		shot := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
			"--window-size=1280,1400", "--screenshot="+filepath.Join("..", "..", screenshots[0].png),
			"file://"+filepath.Join(out, "api", "Produce.html"))
		if b, err := shot.CombinedOutput(); err != nil {
			t.Fatalf("chromium: %v\n%s", err, b)
		}
		prefix := filepath.Join(t.TempDir(), "book")
		if b, err := exec.Command(needTool(t, "pdftoppm"), "-f", bookProducePage, "-l", bookProducePage, "-r", "80", "-png", "-singlefile", book, prefix).CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm: %v\n%s", err, b)
		}
		png, err := os.ReadFile(prefix + ".png")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", screenshots[1].png), png, 0o644); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, s := range screenshots {
			fmt.Fprintf(&b, "%s  %s (%s)\n", sums[s.png], s.png, s.source)
		}
		if err := os.WriteFile(record, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatalf("%v (make the screenshots with -update)", err)
	}
	for _, s := range screenshots {
		want := sums[s.png] + "  " + s.png + " (" + s.source + ")"
		if !strings.Contains(string(data), want) {
			t.Errorf("%s is a picture of an older %s: refresh it with go test ./cmd/kafkagrid -run TestREADMEScreenshots -update, and look at it", s.png, s.source)
		}
		if _, err := os.Stat(filepath.Join("..", "..", s.png)); err != nil {
			t.Error(err)
		}
	}
}
