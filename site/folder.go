package reference

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// output writes the files of a build under one root. Each file is written to a temporary name
// in its own folder and renamed into place, so an interrupted build leaves no half-written file
// under a real name. It creates folders as needed and never removes anything it did not write.
//
// The root is the user's folder: output replaces only files a kafkagrid build wrote there (the
// manifest, ManifestName, lists them) unless force is set, keeps the permissions of a file it
// replaces, and never follows a symbolic link: a link where a folder or file of the build
// would go is an error. It is safe for concurrent use.
type output struct {
	root  string
	force bool
	temps *Temps          // the temporary files open, for a forced stop
	ctx   context.Context // a cancelled build writes no more files
	prev  manifest        // what earlier builds wrote here

	mu      sync.Mutex
	log     *os.File // the manifest, open for appending each file's name before it is put in place
	lock    *folderLock
	kind    string // what the folder holds (manifest.kind)
	dirs    map[string]bool
	written map[string]bool
	files   int
	bytes   int64
}

// ManifestName is the file, in the output folder, that lists the files kafkagrid wrote there.
const ManifestName = ".kafkagrid-manifest"

// manifest is what a build leaves in its output folder: the release, the APIs it has pages
// for, and every file it wrote (slash-separated, relative to the folder).
type manifest struct {
	kind    string // "" for a reference site, "report" for a capture report (FolderReport)
	release string
	apis    []string
	files   map[string]bool
}

func newOutput(root string, force bool) (_ *output, err error) {
	o := &output{root: root, force: force, ctx: context.Background(), dirs: map[string]bool{}, written: map[string]bool{}}
	if err := o.checkRoot(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	// One build at a time in a folder: the other's sweep and manifest would undo this one's.
	if o.lock, err = lockFolder(root); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			o.close()
		}
	}()
	mpath := filepath.Join(root, ManifestName)
	m, raw, err := readManifest(mpath)
	if err != nil {
		return nil, err
	}
	o.prev = m
	o.removeStaleTemps()
	// Each file's name goes into the manifest before the file is renamed into place, so that a
	// build killed part way has recorded every file it put there, and the next build may
	// replace them. writeManifest rewrites it tidily at the end. The manifest is first put in
	// place anew by rename, so that what is appended goes to this folder's own file and never
	// through a hard link to another folder's (cp -al out out.bak).
	if fi, err := os.Lstat(mpath); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("reference: %s is not a regular file", mpath)
	}
	if err := o.place(ManifestName, func(w io.Writer) error { _, err := w.Write(raw); return err }, false); err != nil {
		return nil, err
	}
	if o.log, err = os.OpenFile(mpath, os.O_WRONLY|os.O_APPEND, 0); err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	if fi, err := o.log.Stat(); err != nil || linkCount(fi) > 1 {
		return nil, fmt.Errorf("reference: %s has another name (a hard link) since it was put in place: not appended to", mpath)
	}
	return o, nil
}

// close ends the build's hold on the folder: the manifest's log closed, the lock released.
func (o *output) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.log != nil {
		o.log.Close()
		o.log = nil
	}
	if o.lock != nil {
		o.lock.release()
		o.lock = nil
	}
}

// checkRoot checks that the output folder, if it exists, is a folder. The root itself may be a
// symbolic link (the user named it); what is below it may not.
func (o *output) checkRoot() error {
	fi, err := os.Stat(o.root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("reference: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("reference: %s is not a folder", o.root)
	}
	return nil
}

// MaxManifest bounds the manifest a build reads: a build of every API of every release at
// every version lists some 30,000 files (under 2 MB); a larger manifest is not one kafkagrid
// wrote, and is refused before it is read.
const MaxManifest = 16 << 20

// readManifest reads a manifest (a missing one is empty), and its bytes.
func readManifest(path string) (manifest, []byte, error) {
	m := manifest{files: map[string]bool{}}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil, nil
	}
	if err != nil {
		return m, nil, fmt.Errorf("reference: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && (!fi.Mode().IsRegular() || fi.Size() > MaxManifest) {
		return m, nil, fmt.Errorf("reference: %s: %d bytes or not a regular file, not a manifest kafkagrid writes (at most %d bytes): move it away", path, fi.Size(), MaxManifest)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxManifest+1))
	if err != nil {
		return m, nil, fmt.Errorf("reference: %w", err)
	}
	if len(data) > MaxManifest {
		return m, nil, fmt.Errorf("reference: %s: more than %d bytes, not a manifest kafkagrid writes: move it away", path, MaxManifest)
	}
	for rest := string(data); rest != ""; {
		line, tail, _ := strings.Cut(rest, "\n")
		rest = tail
		switch {
		case strings.HasPrefix(line, "# kind "):
			m.kind = strings.TrimPrefix(line, "# kind ")
		case strings.HasPrefix(line, "# release "):
			m.release = strings.TrimPrefix(line, "# release ")
		case strings.HasPrefix(line, "# api "):
			m.apis = append(m.apis, strings.TrimPrefix(line, "# api "))
		case line == "" || line[0] == '#':
		default:
			if clean := path2rel(line); clean != "" {
				m.files[clean] = true
			}
		}
	}
	return m, data, nil
}

// path2rel accepts a manifest line only as a plain relative path inside the folder.
func path2rel(line string) string {
	c := filepath.ToSlash(filepath.Clean(filepath.FromSlash(line)))
	if c == "." || strings.HasPrefix(c, "../") || c == ".." || filepath.IsAbs(filepath.FromSlash(line)) || strings.Contains(line, "\\") {
		return ""
	}
	return c
}

// writeManifest records what this build and the earlier ones wrote, and the APIs the site has,
// replacing the manifest appended to while the build ran.
func (o *output) writeManifest(release string, apis []string) error {
	o.mu.Lock()
	if o.log != nil {
		o.log.Close()
		o.log = nil
	}
	files := make([]string, 0, len(o.written)+len(o.prev.files))
	for f := range o.written {
		files = append(files, f)
	}
	for f := range o.prev.files {
		if !o.written[f] {
			files = append(files, f)
		}
	}
	o.mu.Unlock()
	sort.Strings(files)
	var b strings.Builder
	b.WriteString("# kafkagrid build manifest: the files kafkagrid wrote in this folder, which a later build may replace.\n")
	if o.kind != "" {
		b.WriteString("# kind " + o.kind + "\n")
	}
	if release != "" {
		b.WriteString("# release " + release + "\n")
	}
	for _, a := range apis {
		b.WriteString("# api " + a + "\n")
	}
	for _, f := range files {
		b.WriteString(f + "\n")
	}
	return o.place(ManifestName, func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	}, false)
}

// removeStaleTemps removes the temporary files that killed builds left in the folders a build
// writes, and only those: a name of this project's temporary pattern ("." + name +
// ".tmp-kafkagrid-" + digits, as create makes them), or of the pattern earlier versions used
// ("." + name + ".tmp" + digits) when name is a file the manifest lists. It never follows a
// symbolic link to a folder, and a build in progress holds the folder's lock, so its
// temporaries are not stale.
func (o *output) removeStaleTemps() {
	for _, d := range []string{"", "api", "svg", "bin", "json", "txt", "frames"} {
		dir := filepath.Join(o.root, d)
		if d != "" {
			if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
				continue // absent, or a link (to someone else's folder, say)
			}
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			n := e.Name()
			if !e.Type().IsRegular() {
				continue
			}
			owner, ours := tempOwner(n)
			rel := owner
			if d != "" {
				rel = d + "/" + owner
			}
			if ours || owner != "" && (o.prev.files[rel] || rel == ManifestName) {
				os.Remove(filepath.Join(dir, n))
			}
		}
	}
}

// tempSuffix marks this project's temporary files: "." + name + tempSuffix + digits.
const tempSuffix = ".tmp-kafkagrid-"

// tempOwner reads a temporary file's name: the file it stands for, and whether it has this
// project's own pattern (else the older ".NAME.tmpDIGITS", which anyone may use); "" when it is
// neither.
func tempOwner(n string) (owner string, ours bool) {
	if !strings.HasPrefix(n, ".") {
		return "", false
	}
	digits := func(s string) bool {
		if s == "" {
			return false
		}
		for _, c := range s {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	if i := strings.LastIndex(n, tempSuffix); i > 1 && digits(n[i+len(tempSuffix):]) {
		return n[1:i], true
	}
	if i := strings.LastIndex(n, ".tmp"); i > 1 && digits(n[i+4:]) {
		return n[1:i], false
	}
	return "", false
}

// checkPlan checks, before a build writes its first file, every file it will write (rels,
// slash-separated, relative to root) as place checks each one: a file in the way that no
// kafkagrid build wrote (not in prev, the folder's manifest; unless force), a symbolic link,
// or something other than a regular file. It reports the first problem, how many files have
// one, and a few of their names, so that a build either writes everything or nothing.
func checkPlan(root string, force bool, prev manifest, rels []string) error {
	const named = 5
	var hard error // a problem -force does not lift
	var notOurs []string
	nHard := 0
	for _, rel := range rels {
		path := filepath.Join(root, filepath.FromSlash(rel))
		fi, err := os.Lstat(path)
		var problem error
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			problem = writeError(path, err)
		case fi.Mode()&fs.ModeSymlink != 0:
			problem = fmt.Errorf("reference: write %s: a symbolic link; the build does not follow links", path)
		case !fi.Mode().IsRegular():
			problem = fmt.Errorf("reference: write %s: not a regular file", path)
		case !force && !prev.files[rel]:
			notOurs = append(notOurs, path)
		}
		if problem != nil {
			if hard == nil {
				hard = problem
			}
			nHard++
		}
	}
	if hard != nil {
		if nHard > 1 {
			return fmt.Errorf("%w (and %d more files of the build in the way); nothing was written", hard, nHard-1)
		}
		return fmt.Errorf("%w; nothing was written", hard)
	}
	if len(notOurs) == 0 {
		return nil
	}
	more := ""
	if n := len(notOurs) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more: %s", n, strings.Join(notOurs[1:min(len(notOurs), named+1)], ", "))
		if n > named {
			more += ", …"
		}
		more += ")"
	}
	return fmt.Errorf("reference: %s %w%s; nothing was written", notOurs[0], ErrNotOurs, more)
}

// write stores data as the file rel (slash-separated, relative to the root).
func (o *output) write(rel string, data []byte) error {
	return o.create(rel, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// ErrNotOurs reports a file in the output folder that no kafkagrid build wrote.
var ErrNotOurs = errors.New("exists and was not written by kafkagrid (not in " + ManifestName + "); move it, or build with -force to replace it")

// create stores what fill writes as the file rel. Errors name the file rel becomes, never the
// temporary file behind it: "reference: write out/index.html: permission denied".
func (o *output) create(rel string, fill func(io.Writer) error) error {
	return o.place(rel, fill, true)
}

func (o *output) place(rel string, fill func(io.Writer) error, record bool) (err error) {
	if err := context.Cause(o.ctx); err != nil && record {
		return err
	}
	path := filepath.Join(o.root, filepath.FromSlash(rel))
	dir := filepath.Dir(path)
	if err := o.mkdir(dir); err != nil {
		return err
	}
	mode := fs.FileMode(0) // a new file keeps what the umask leaves of 0666
	switch fi, err := os.Lstat(path); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return writeError(path, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("reference: write %s: a symbolic link; the build does not follow links", path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("reference: write %s: not a regular file", path)
	default:
		if record && !o.force && !o.prev.files[rel] {
			return fmt.Errorf("reference: %s %w", path, ErrNotOurs)
		}
		mode = fi.Mode().Perm() // keep the user's permissions
	}
	f, err := createTemp(dir, "."+filepath.Base(path)+tempSuffix)
	if err != nil {
		return writeError(path, err)
	}
	o.temps.Add(f.Name())
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
		o.temps.Done(f.Name())
	}()
	cw := &countWriter{w: f}
	bw := bufio.NewWriterSize(cw, 64<<10)
	if err := fill(bw); err != nil {
		if cw.err != nil { // the file failed, not what fills it
			return writeError(path, cw.err)
		}
		return fmt.Errorf("reference: %s: %w", rel, err)
	}
	if err := bw.Flush(); err != nil {
		return writeError(path, err)
	}
	if err := context.Cause(o.ctx); err != nil && record {
		return err // cancelled while it was written: the temporary file goes
	}
	if mode != 0 {
		if err := f.Chmod(mode); err != nil {
			return writeError(path, err)
		}
	}
	if err := f.Close(); err != nil {
		return writeError(path, err)
	}
	if record {
		o.mu.Lock()
		if o.log != nil && !o.prev.files[rel] && !o.written[rel] {
			_, err = io.WriteString(o.log, rel+"\n")
		}
		o.written[rel] = true
		o.mu.Unlock()
		if err != nil {
			return writeError(filepath.Join(o.root, ManifestName), err)
		}
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return writeError(path, err)
	}
	o.mu.Lock()
	if record {
		o.files++
		o.bytes += cw.n
	}
	o.mu.Unlock()
	return nil
}

// createTemp creates a new file in dir named prefix and random digits, with what the umask
// leaves of 0666 (os.CreateTemp's 0600 would need a chmod that ignores the umask).
func createTemp(dir, prefix string) (*os.File, error) {
	for i := 0; ; i++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		return f, err
	}
}

// writeError reports a failure to write the file path. The operating system's errors name
// the temporary file (or both names, for a rename); those names are dropped for path's, and the
// cause (fs.ErrPermission, syscall.ENOSPC…) stays wrapped for errors.Is.
func writeError(path string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return fmt.Errorf("reference: write %s: %w", path, err)
}

// mkdir makes dir and the folders above it up to the root, refusing a symbolic link on the way:
// a link inside the output folder could lead the build's files out of it.
func (o *output) mkdir(dir string) error {
	o.mu.Lock()
	done := o.dirs[dir]
	o.mu.Unlock()
	if done {
		return nil
	}
	if err := os.MkdirAll(o.root, 0o755); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	rel, err := filepath.Rel(o.root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("reference: %s is outside the output folder %s", dir, o.root)
	}
	at := o.root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." || part == "" {
			continue
		}
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(at, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("reference: %w", err)
			}
		case err != nil:
			return fmt.Errorf("reference: %w", err)
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("reference: %s is a symbolic link; the build does not follow links out of its folder", at)
		case !fi.IsDir():
			return fmt.Errorf("reference: %s is not a folder", at)
		}
	}
	o.mu.Lock()
	o.dirs[dir] = true
	o.mu.Unlock()
	return nil
}

func (o *output) counts() (files int, n int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.files, o.bytes
}

// countWriter counts the bytes written and keeps the first error of the file beneath.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// errWriter keeps the first write error and drops later writes: svgo and fmt.Fprintf callers
// can write freely and check once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

// Temps is the set of temporary files a build has open, so that a process told to stop can
// remove them when it cannot wait for the build to clean up (an uninterruptible write of the
// book, say). The zero value is ready; a nil *Temps records nothing. It is safe for concurrent use.
type Temps struct {
	mu    sync.Mutex
	names map[string]bool
}

// Add records an open temporary file.
func (t *Temps) Add(name string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	if t.names == nil {
		t.names = map[string]bool{}
	}
	t.names[name] = true
	t.mu.Unlock()
}

// Done forgets a temporary file, renamed into place or removed.
func (t *Temps) Done(name string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	delete(t.names, name)
	t.mu.Unlock()
}

// RemoveAll removes every temporary file still open and forgets them.
func (t *Temps) RemoveAll() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for n := range t.names {
		os.Remove(n)
	}
	t.names = nil
}
