package schemas

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// schemaRoot returns the folder of releases: $KAFKA_SCHEMAS, else ../shared/kafka-schemas
// beside the module root. It skips the test when neither exists.
func schemaRoot(t testing.TB) string {
	t.Helper()
	return testenv.Releases(t)
}

// TestLoadReleases loads every release folder found (2.4 … 4.1 and whatever is added), and
// logs the notes on lenient input each gives.
func TestLoadReleases(t *testing.T) {
	for _, dir := range testenv.All(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d specs, %d notes", len(r.Specs), len(r.Notes()))
			for _, n := range r.Notes() {
				t.Log(n)
			}
		})
	}
}

// TestOpen reads one release from a folder, a kafka-clients jar and a Kafka installation, and
// gets the same specs from each.
func TestOpen(t *testing.T) {
	dir := filepath.Join(schemaRoot(t), "4.0")
	tmp := t.TempDir()
	jar := filepath.Join(tmp, "kafka_2.13-4.0.0", "libs", "kafka-clients-4.0.0.jar")
	if err := os.MkdirAll(filepath.Dir(jar), 0o755); err != nil {
		t.Fatal(err)
	}
	writeJar(t, jar, dir)
	// Decoys a Kafka installation's libs folder has too.
	writeJar(t, filepath.Join(filepath.Dir(jar), "kafka-clients-4.0.0-test.jar"), dir)
	os.WriteFile(filepath.Join(filepath.Dir(jar), "kafka-server-4.0.0.jar"), []byte("PK"), 0o644)

	// A folder whose spec files are links to 4.0's, and a link to 4.0's folder: read as the
	// files and the folder they point to.
	linkedFiles := filepath.Join(tmp, "linked-files")
	os.Mkdir(linkedFiles, 0o755)
	specs, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range specs {
		if err := os.Symlink(f, filepath.Join(linkedFiles, filepath.Base(f))); err != nil {
			t.Fatal(err)
		}
	}
	linkedDir := filepath.Join(tmp, "linked-dir")
	if err := os.Symlink(dir, linkedDir); err != nil {
		t.Fatal(err)
	}

	want, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, path, release string }{
		{"folder", dir, "4.0"},
		{"folder of linked files", linkedFiles, "4.0"},
		{"linked folder", linkedDir, "4.0"},
		{"jar", jar, "4.0.0"},
		{"installation", filepath.Join(tmp, "kafka_2.13-4.0.0"), "4.0.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if r.Name() != tc.release {
				t.Errorf("Name() = %q, want %q", r.Name(), tc.release)
			}
			if len(r.Specs) != len(want.Specs) {
				t.Fatalf("%d specs, want %d", len(r.Specs), len(want.Specs))
			}
			for i, s := range r.Specs {
				if s.File != want.Specs[i].File || string(s.Raw) != string(want.Specs[i].Raw) {
					t.Fatalf("spec %d: %s differs from %s", i, s.File, want.Specs[i].File)
				}
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	tmp := t.TempDir()
	notJar := filepath.Join(tmp, "kafka-clients-1.0.jar")
	os.WriteFile(notJar, []byte("not a zip"), 0o644)
	empty := filepath.Join(tmp, "kafka-streams-4.0.0.jar")
	writeJar(t, empty, "")
	text := filepath.Join(tmp, "notes.txt")
	os.WriteFile(text, []byte("x"), 0o644)
	fifoDir := filepath.Join(tmp, "fifo")
	os.Mkdir(fifoDir, 0o755)
	fifo := filepath.Join(fifoDir, "XRequest.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(tmp, "dangling")
	os.Mkdir(dangling, 0o755)
	if err := os.Symlink(filepath.Join(tmp, "gone.json"), filepath.Join(dangling, "XRequest.json")); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(tmp, "loop")
	os.Mkdir(loop, 0o755)
	os.Symlink("BRequest.json", filepath.Join(loop, "ARequest.json"))
	os.Symlink("ARequest.json", filepath.Join(loop, "BRequest.json"))
	for _, tc := range []struct{ name, path, want string }{
		{"missing", filepath.Join(tmp, "nope"), "no such file or directory"},
		{"a dangling link named .json", dangling, "XRequest.json: a dangling symbolic link: its target " + filepath.Join(tmp, "gone.json") + " does not exist"},
		{"a loop of links named .json", loop, "ARequest.json: a loop of symbolic links"},
		{"not a zip", notJar, "kafka-clients-1.0.jar: zip: not a valid zip file"},
		{"jar without specs", empty, "no common/message/*.json in the jar (is it kafka-clients?)"},
		{"text file", text, "notes.txt: not a folder, nor a kafka-clients .jar"},
		{"empty folder", t.TempDir(), "no *.json spec files in"},
		{"a pipe named .json", fifoDir, "XRequest.json: not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// writeJar writes a jar (a zip) holding dir's *.json files under common/message/, as
// kafka-clients packages them, beside a class file; dir "" writes a jar without specs.
func writeJar(t *testing.T, jar, dir string) {
	t.Helper()
	f, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z := zip.NewWriter(f)
	w, _ := z.Create("org/apache/kafka/common/Uuid.class")
	w.Write([]byte{0xca, 0xfe, 0xba, 0xbe})
	if dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			w, err := z.Create(JarMessageDir + "/" + filepath.Base(file))
			if err != nil {
				t.Fatal(err)
			}
			w.Write(data)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
}
