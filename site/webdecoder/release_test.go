package webdecoder

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestReleaseData: AppendRelease's data read back by ReadRelease are the same files, byte
// for byte (an empty file, a name with spaces, bytes that are no UTF-8), and Release makes of
// a real release's data the catalogue kafka.LoadCatalog makes of its folder. Data cut short,
// a size past the end, a size not in plain decimal, no file, and names with line breaks are
// refused, each with an error that says where.
func TestReleaseData(t *testing.T) {
	files := []ReleaseFile{{"A Request.json", []byte("{}\n")}, {"empty.json", nil}, {"bin.json", []byte{0xff, '\n', 0}}}
	data, err := AppendRelease(nil, "4.0", files)
	if err != nil {
		t.Fatal(err)
	}
	name, got, err := ReadRelease(data)
	if err != nil || name != "4.0" || len(got) != len(files) {
		t.Fatalf("%q %d files %v", name, len(got), err)
	}
	for i, f := range got {
		if f.Name != files[i].Name || !bytes.Equal(f.Text, files[i].Text) {
			t.Errorf("file %d: %q %q, want %q %q", i, f.Name, f.Text, files[i].Name, files[i].Text)
		}
	}
	for _, bad := range []struct{ data, want string }{
		{"", "not kafkagrid's"},
		{"kafkagrid release 1\n4.0", "the release's name cut short"},
		{"kafkagrid release 1\n4.0\n", "no spec file"},
		{"kafkagrid release 1\n4.0\na.json\n5\n{}", "byte 31: the size of \"a.json\" is \"5\""},
		{"kafkagrid release 1\n4.0\na.json\n+2\n{}", "is \"+2\""},
		{"kafkagrid release 1\n4.0\na.json\n-1\n{}", "is \"-1\""},
		{"kafkagrid release 1\n4.0\na.json\n2", "cut short"},
	} {
		if _, _, err := ReadRelease([]byte(bad.data)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want an error saying %q", bad.data, err, bad.want)
		}
	}
	if _, err := AppendRelease(nil, "4.0", []ReleaseFile{{"a\nb.json", nil}}); err == nil {
		t.Error("a file name with a line break written")
	}
	if _, err := AppendRelease(nil, "4\n0", nil); err == nil {
		t.Error("a release name with a line break written")
	}

	want, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	var real []ReleaseFile
	for _, s := range want.Release.Specs {
		real = append(real, ReleaseFile{s.File, s.Raw})
	}
	data, err = AppendRelease(nil, "4.0", real)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Release(data)
	if err != nil {
		t.Fatal(err)
	}
	if c.Release.Name() != "4.0" || len(c.APIs) != len(want.APIs) || len(c.Release.Specs) != len(want.Release.Specs) {
		t.Errorf("release %q: %d APIs, %d specs; the folder's: %d, %d", c.Release.Name(), len(c.APIs), len(c.Release.Specs), len(want.APIs), len(want.Release.Specs))
	}
}

// FuzzReadRelease: whatever the bytes, ReadRelease returns files or an error, never a panic,
// and the files it returns are slices of the input whose sizes add up to at most its length.
func FuzzReadRelease(f *testing.F) {
	seed, _ := AppendRelease(nil, "4.0", []ReleaseFile{{"a.json", []byte("{}")}, {"b.json", nil}})
	f.Add(seed)
	f.Add([]byte("kafkagrid release 1\n4.0\na.json\n99999999999999999999\n"))
	f.Add([]byte("kafkagrid release 1\n\n\n0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, files, err := ReadRelease(data)
		if err != nil {
			return
		}
		n := 0
		for _, fl := range files {
			n += len(fl.Text)
		}
		if n > len(data) || len(files) == 0 {
			t.Fatalf("%d files of %d bytes from %d bytes", len(files), n, len(data))
		}
	})
}
