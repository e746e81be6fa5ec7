package outdir

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/kafkagrid/kafkagrid/internal/testenv" // the -update switch of go test ./... -update
)

// TestOutputErrorsNameTheFile checks that a failed write names the file the build was writing,
// never the temporary file behind it, and leaves no temporary file behind.
func TestOutputErrorsNameTheFile(t *testing.T) {
	long := strings.Repeat("x", 245) + ".pdf" // fits a name, but not with ".…tmpNNN" around it
	tests := []struct {
		name  string
		rel   string
		setup func(root string) // makes the write fail
		fill  func(io.Writer) error
		want  string // the error, with ROOT for the output folder
	}{
		{name: "create", rel: long, want: "site: write ROOT/" + long + ": "},
		{
			name:  "rename",
			rel:   "sub/book.pdf",
			setup: func(root string) { os.MkdirAll(filepath.Join(root, "sub", "book.pdf", "in-the-way"), 0o755) },
			want:  "site: write ROOT/sub/book.pdf: ",
		},
		{
			name: "fill",
			rel:  "index.html",
			fill: func(io.Writer) error { return errFill },
			want: "site: index.html: fail",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.setup != nil {
				tt.setup(root)
			}
			fill := tt.fill
			if fill == nil {
				fill = func(w io.Writer) error { _, err := w.Write([]byte("%PDF")); return err }
			}
			o, err := Open(context.Background(), root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			err = o.Create(tt.rel, fill)
			if err == nil {
				t.Fatal("no error")
			}
			want := strings.ReplaceAll(tt.want, "ROOT", root)
			if msg := err.Error(); !strings.HasPrefix(msg, want) || strings.Contains(msg, ".tmp") {
				t.Errorf("err = %q, want it to start %q and name no temporary file", msg, want)
			}
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err == nil && strings.Contains(d.Name(), ".tmp") {
					t.Errorf("temporary file left: %s", p)
				}
				return nil
			})
		})
	}
}

var errFill = errors.New("fail")

// temps lists the temporary files (of either pattern) below root.
func temps(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// TestCreateEveryWayOut checks that Create removes its temporary file however it ends: fill
// failing, fill panicking, the context cancelled while fill ran, and that the file stays
// listed in Temps only while it is open.
func TestCreateEveryWayOut(t *testing.T) {
	tests := []struct {
		name string
		fill func(cancel context.CancelFunc, tmps *Temps) func(io.Writer) error
	}{
		{"fill fails", func(context.CancelFunc, *Temps) func(io.Writer) error {
			return func(io.Writer) error { return errFill }
		}},
		{"fill panics", func(context.CancelFunc, *Temps) func(io.Writer) error {
			return func(w io.Writer) error { w.Write([]byte("half")); panic("fill") }
		}},
		{"cancelled while written", func(cancel context.CancelFunc, _ *Temps) func(io.Writer) error {
			return func(w io.Writer) error { cancel(); _, err := w.Write([]byte("x")); return err }
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tmps := &Temps{}
			f, err := Open(ctx, root, Options{Temps: tmps})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			seen := 0
			fill := tt.fill(cancel, tmps)
			func() {
				defer func() { recover() }()
				err = f.Create("svg/a.svg", func(w io.Writer) error {
					tmps.mu.Lock()
					seen = len(tmps.names)
					tmps.mu.Unlock()
					return fill(w)
				})
			}()
			if seen != 1 {
				t.Errorf("Temps listed %d files while one was open", seen)
			}
			if left := temps(t, root); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
			if len(tmps.names) != 0 {
				t.Errorf("Temps still lists %v", tmps.names)
			}
			if _, serr := os.Lstat(filepath.Join(root, "svg", "a.svg")); serr == nil {
				t.Error("the file was put in place")
			}
		})
	}
}

// TestOpenFolderSweepsStaleTemps checks which leftovers of killed runs Open removes: this
// project's pattern in the root, in any subfolder and in the folders the manifest names; the
// older pattern only for a file of the manifest; nothing through a symbolic link, nothing of
// the user's.
func TestOpenFolderSweepsStaleTemps(t *testing.T) {
	root := t.TempDir()
	victim := t.TempDir()
	write := func(rel string) string {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write(ManifestName)
	os.WriteFile(filepath.Join(root, ManifestName), []byte("# kafkagrid build manifest\nbin/a.bin\n4.0/api/deep/b.html\n"), 0o644)
	gone := []string{
		write(".index.html.tmp-kafkagrid-1"),
		write("frames/.c1-1.json.tmp-kafkagrid-22"),     // a folder no list names
		write("4.0/api/deep/.b.html.tmp-kafkagrid-333"), // the manifest's folder
		write("bin/.a.bin.tmp4444"),                     // the older pattern, of a manifest file
	}
	kept := []string{
		write("bin/.draft.tmp2026"),        // the older pattern, not of the manifest
		write("bin/.notes.tmpx"),           // not a temporary name
		write("notes/.x.tmp-kafkagrid-ab"), // not digits
	}
	theirs := filepath.Join(victim, ".y.tmp-kafkagrid-5")
	os.WriteFile(theirs, []byte("x"), 0o644)
	if err := os.Symlink(victim, filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, theirs)
	f, err := Open(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, p := range gone {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s kept", p)
		}
	}
	for _, p := range kept {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s removed", p)
		}
	}
}

// TestFolderRules checks the README's rules one by one: a user's file is not replaced, a link
// is not followed, the other kind of output is refused, and Finish with Complete removes only
// the files an earlier run wrote.
func TestFolderRules(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	f, err := Open(ctx, root, Options{Kind: KindReport})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"index.html", "frames/old.json"} {
		if err := f.Write(rel, []byte(rel)); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Finish(FinishOptions{Complete: true}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	os.WriteFile(filepath.Join(root, "mine.txt"), []byte("mine"), 0o600)
	os.Symlink(t.TempDir(), filepath.Join(root, "out"))

	if _, err := Open(ctx, root, Options{}); err == nil || !strings.Contains(err.Error(), "holds a report") {
		t.Errorf("a reference opened in a report's folder: %v", err)
	}
	f, err = Open(ctx, root, Options{Kind: KindReport})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Write("mine.txt", nil); !errors.Is(err, ErrNotOurs) {
		t.Errorf("a user's file: %v", err)
	}
	if err := f.Write("out/x.svg", nil); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("through a link: %v", err)
	}
	if err := f.Write("index.html", []byte("new")); err != nil {
		t.Errorf("its own file: %v", err)
	}
	if got := f.Written(); strings.Join(got, ",") != "index.html" {
		t.Errorf("Written = %v", got)
	}
	if err := f.Finish(FinishOptions{Complete: true}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := os.Lstat(filepath.Join(root, "frames", "old.json")); err == nil {
		t.Error("the earlier run's frames/old.json kept by a complete run")
	}
	if b, err := os.ReadFile(filepath.Join(root, "mine.txt")); err != nil || string(b) != "mine" {
		t.Errorf("the user's file: %q, %v", b, err)
	}
	m, err := ReadManifest(root)
	if err != nil || m.Kind != KindReport || len(m.Files) != 1 || !m.Files["index.html"] {
		t.Errorf("manifest %+v, %v", m, err)
	}
}

// TestWriteFile checks the one-file writer: a new file and its folders, a replaced file
// keeping its mode, a link written through to its target, a folder refused, a failing fill
// leaving the old file whole and no temporary file.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	p := filepath.Join(dir, "a", "b.svg")
	if err := WriteFile(p, text("one"), nil); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o640)
	tmps := &Temps{}
	if err := WriteFile(p, text("two"), tmps); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("got %q", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
	}
	link := filepath.Join(dir, "link.svg")
	os.Symlink(p, link)
	if err := WriteFile(link, text("three"), nil); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if b, _ := os.ReadFile(p); string(b) != "three" {
		t.Errorf("through the link: %q", b)
	}
	if err := WriteFile(dir, text("x"), nil); err == nil || !strings.Contains(err.Error(), "a folder") {
		t.Errorf("a folder: %v", err)
	}
	err := WriteFile(p, func(w io.Writer) error { io.WriteString(w, "half"); return errFill }, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "site: "+p+": fail") {
		t.Errorf("fill failing: %v", err)
	}
	func() {
		defer func() { recover() }()
		WriteFile(p, func(w io.Writer) error { panic("fill") }, nil)
	}()
	if b, _ := os.ReadFile(p); string(b) != "three" {
		t.Errorf("after failures: %q", b)
	}
	if left := temps(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if len(tmps.names) != 0 {
		t.Errorf("Temps still lists %v", tmps.names)
	}
}

// FuzzReadManifest reads arbitrary manifests: never a panic, and every file it accepts is a
// clean relative path inside the folder, however the line was written.
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte("# kafkagrid build manifest: the files kafkagrid wrote in this folder, which a later build may replace.\n# release 4.0\n# api Produce\napi/Produce.html\nbin/0-Produce-v12-request.bin\nsvg/0-Produce-v12-request-grid.svg\n"))
	f.Add([]byte("# kind report\nindex.html\nframes/c1-1-0-Produce-v12-request.json\n"))
	f.Add([]byte("../x\n/etc/passwd\na/../../b\na\\b\n./a//b\n.\n"))
	dir := f.TempDir()
	path := filepath.Join(dir, ManifestName)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, raw, err := readManifest(path)
		if err != nil {
			t.Fatal(err) // any text under MaxManifest is read
		}
		if string(raw) != string(data) {
			t.Fatal("raw bytes differ from the file")
		}
		for rel := range m.Files {
			if rel == "" || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) ||
				strings.Contains(rel, "\\") || filepath.ToSlash(filepath.Clean(rel)) != rel {
				t.Errorf("accepted %q", rel)
			}
		}
	})
}

// TestReadManifestWaitsForTheLock: a run's plan is checked against the manifest only once the
// folder's lock is taken: while another run holds it, the second is refused for that (the
// lock's error), not for the files the first has written and the manifest it is writing; once
// let go, the manifest reads.
func TestReadManifestWaitsForTheLock(t *testing.T) {
	defer func(w time.Duration) { LockWait = w }(LockWait)
	LockWait = 100 * time.Millisecond
	root := t.TempDir()
	f, err := Open(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Write("a.html", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadManifest(root); err == nil || !strings.Contains(err.Error(), "is being built by") {
		t.Errorf("while another run holds the folder: %v", err)
	}
	if err := f.Finish(FinishOptions{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	m, err := ReadManifest(root)
	if err != nil || !m.Files["a.html"] {
		t.Errorf("after: %v %v", m.Files, err)
	}
	if _, err := os.Lstat(filepath.Join(root, LockName)); !os.IsNotExist(err) {
		t.Errorf("the lock is left behind: %v", err)
	}
}

// TestTempsRemoveAll: RemoveAll removes the temporary files open at the time, and a write that
// starts after it (a build still running when the process is told to stop) leaves no file:
// its temporary file is removed as it is created, and the write fails.
func TestTempsRemoveAll(t *testing.T) {
	dir := t.TempDir()
	temps := &Temps{}
	open, err := openTemp(dir, "open.svg", temps)
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	temps.RemoveAll()
	if _, err := os.Stat(open.Name()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s after RemoveAll: %v", open.Name(), err)
	}
	err = WriteFile(filepath.Join(dir, "late.svg"), func(w io.Writer) error {
		_, err := io.WriteString(w, "<svg/>")
		return err
	}, temps)
	if !errors.Is(err, errStopped) {
		t.Errorf("a write after RemoveAll: %v, want errStopped", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left in the folder: %v", left)
	}
}
