package outdir

import (
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

// Folder is an output folder: the one place every kafkagrid output that is a folder of files
// (a reference site, a release of it, a capture report) is written through. It keeps the rules
// of the README's "the output folder is yours":
//
//   - Each file is written to a temporary name in its own folder ("." + name +
//     ".tmp-kafkagrid-" + digits) and renamed into place, so an interrupted run leaves no
//     half-written file under a real name. A temporary file is removed on every way out of
//     Create (an error, a cancelled context, a panic in fill); while it is open it is listed in
//     Options.Temps, for a signal handler that cannot wait.
//   - Only files a kafkagrid run wrote are replaced (the manifest, ManifestName, lists them),
//     unless Options.Force; a file replaced keeps its permissions.
//   - No symbolic link below the folder is followed: a link where a folder or file of the run
//     would go is an error. The folder itself may be a link (the user named it).
//   - The stale temporaries of killed runs are removed when the folder is opened, and only
//     those (see Open).
//   - One writer at a time: the folder's lock (LockName), waited on for LockWait.
//   - A folder holds one kind of output (Options.Kind): a report is not written into a
//     built reference, nor a reference into a report's folder.
//
// A Folder is safe for concurrent use by the goroutines of one run.
type Folder struct {
	root  string
	force bool
	temps *Temps          // the process's temporary files, for a forced stop
	ctx   context.Context // a cancelled run writes no more files
	prev  Manifest        // what earlier runs wrote here
	kind  string

	mu      sync.Mutex
	log     *os.File // the manifest, open for appending each file's name before it is put in place
	lock    *folderLock
	dirs    map[string]bool
	written map[string]bool
	files   int
	bytes   int64
}

// ManifestName is the file, in the output folder, that lists the files kafkagrid wrote there.
const ManifestName = ".kafkagrid-manifest"

// KindReport is the kind of a folder that holds a capture report (decode -o, probe -o); a
// reference site's is "".
const KindReport = "report"

// Manifest is what runs left in an output folder: the kind of output, the release and the
// APIs a reference has pages for, and every file kafkagrid wrote (slash-separated, relative
// to the folder).
type Manifest struct {
	Kind    string
	Release string
	APIs    []string
	Files   map[string]bool
}

// Options configure Open. The zero value opens a reference site's folder that
// replaces only kafkagrid's own files.
type Options struct {
	Kind  string // what the folder holds: "" a reference site, KindReport a capture report
	Force bool   // replace files in the way that no kafkagrid run wrote
	Temps *Temps // the process's temporary files, when a signal handler removes them
}

// Open opens root (created if needed) to write output of o.Kind into: it takes the
// folder's lock, reads the manifest, refuses a folder that holds another kind of output, and
// removes the temporary files killed runs left in root, in its subfolders and in the folders
// the manifest names: a name of this project's temporary pattern, or of the older
// "." + name + ".tmp" + digits when name is a file the manifest lists. ctx cancelled stops the
// writing of further files. Close lets the folder go.
func Open(ctx context.Context, root string, o Options) (_ *Folder, err error) {
	f := &Folder{root: root, force: o.Force, temps: o.Temps, ctx: ctx, kind: o.Kind,
		dirs: map[string]bool{}, written: map[string]bool{}}
	if err := checkRoot(root); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	// One run at a time in a folder: the other's sweep and manifest would undo this one's.
	if f.lock, err = lockFolder(root, o.Kind); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	mpath := filepath.Join(root, ManifestName)
	m, raw, err := readManifest(mpath)
	if err != nil {
		return nil, err
	}
	if err := m.CheckKind(root, o.Kind); err != nil {
		return nil, err
	}
	f.prev = m
	f.removeStaleTemps()
	// Each file's name goes into the manifest before the file is renamed into place, so that a
	// run killed part way has recorded every file it put there, and the next run may replace
	// them. Finish rewrites it tidily at the end. The manifest is first put in place anew by
	// rename, so that what is appended goes to this folder's own file and never through a hard
	// link to another folder's (cp -al out out.bak).
	if fi, err := os.Lstat(mpath); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("site: %s is not a regular file", mpath)
	}
	if err := f.place(ManifestName, func(w io.Writer) error { _, err := w.Write(raw); return err }, false); err != nil {
		return nil, err
	}
	if f.log, err = os.OpenFile(mpath, os.O_WRONLY|os.O_APPEND, 0); err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	if fi, err := f.log.Stat(); err != nil || linkCount(fi) > 1 {
		return nil, fmt.Errorf("site: %s has another name (a hard link) since it was put in place: not appended to", mpath)
	}
	return f, nil
}

// Prev is what earlier runs wrote in the folder, as its manifest said when it was opened.
func (f *Folder) Prev() Manifest { return f.prev }

// Close ends the run's hold on the folder: the manifest's log closed, the lock released. It
// writes no manifest (Finish does); it may be called more than once.
func (f *Folder) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.log != nil {
		f.log.Close()
		f.log = nil
	}
	if f.lock != nil {
		f.lock.release()
		f.lock = nil
	}
	return nil
}

// checkRoot checks that the output folder, if it exists, is a folder. The root itself may be a
// symbolic link (the user named it); what is below it may not.
func checkRoot(root string) error {
	fi, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("site: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("site: %s is not a folder", root)
	}
	return nil
}

// MaxManifest bounds the manifest a run reads: a build of every API of every release at
// every version lists some 30,000 files (under 2 MB); a larger manifest is not one kafkagrid
// wrote, and is refused before it is read.
const MaxManifest = 16 << 20

// ReadManifest reads the manifest of the output folder root, before anything there is
// touched (a run checks its plan against it first): a missing folder or manifest is empty.
// The folder's lock is taken first, and let go once it is read: a run writing there changes
// its files and manifest as they are read, and a second run is refused because the first
// holds the folder (its lock's error), not for a file the first has not listed yet.
func ReadManifest(root string) (Manifest, error) {
	if err := checkRoot(root); err != nil {
		return Manifest{Files: map[string]bool{}}, err
	}
	if _, err := os.Stat(root); err == nil {
		l, err := lockFolder(root, "")
		if err != nil {
			return Manifest{Files: map[string]bool{}}, err
		}
		defer l.release()
	}
	m, _, err := readManifest(filepath.Join(root, ManifestName))
	return m, err
}

// CheckKind reports an error when the folder root whose manifest m is holds output of
// another kind than kind.
func (m Manifest) CheckKind(root, kind string) error {
	if m.Kind == kind || len(m.Files) == 0 {
		return nil
	}
	what := "a reference site (kafkagrid build)"
	if m.Kind != "" {
		what = "a " + m.Kind
	}
	return fmt.Errorf("site: %s holds %s (its %s says so): write into another folder", root, what, ManifestName)
}

// readManifest reads a manifest (a missing one is empty), and its bytes.
func readManifest(path string) (Manifest, []byte, error) {
	m := Manifest{Files: map[string]bool{}}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil, nil
	}
	if err != nil {
		return m, nil, fmt.Errorf("site: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && (!fi.Mode().IsRegular() || fi.Size() > MaxManifest) {
		return m, nil, fmt.Errorf("site: %s: %d bytes or not a regular file, not a manifest kafkagrid writes (at most %d bytes): move it away", path, fi.Size(), MaxManifest)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxManifest+1))
	if err != nil {
		return m, nil, fmt.Errorf("site: %w", err)
	}
	if len(data) > MaxManifest {
		return m, nil, fmt.Errorf("site: %s: more than %d bytes, not a manifest kafkagrid writes: move it away", path, MaxManifest)
	}
	for rest := string(data); rest != ""; {
		line, tail, _ := strings.Cut(rest, "\n")
		rest = tail
		switch {
		case strings.HasPrefix(line, "# kind "):
			m.Kind = strings.TrimPrefix(line, "# kind ")
		case strings.HasPrefix(line, "# release "):
			m.Release = strings.TrimPrefix(line, "# release ")
		case strings.HasPrefix(line, "# api "):
			m.APIs = append(m.APIs, strings.TrimPrefix(line, "# api "))
		case line == "" || line[0] == '#':
		default:
			if clean := path2rel(line); clean != "" {
				m.Files[clean] = true
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

// FinishOptions say what Finish records besides the files.
type FinishOptions struct {
	Release string   // the release a reference was built from ("" for none)
	APIs    []string // the APIs a reference has pages for
	// Complete says the output is whole: the files an earlier run wrote and this one did not
	// (a report's frames of another capture) are removed. Else they are kept, and listed, for
	// the next run to replace (a partial build, a run that failed part way).
	Complete bool
}

// Finish records what this run and the earlier ones wrote in the manifest, replacing the one
// appended to while the run wrote. It is called also when the run failed part way, so that
// the next run may replace the files this one put there. The folder stays held until Close.
func (f *Folder) Finish(o FinishOptions) error {
	f.mu.Lock()
	if f.log != nil {
		f.log.Close()
		f.log = nil
	}
	f.mu.Unlock()
	if o.Complete {
		f.removeOthers()
	}
	f.mu.Lock()
	files := make([]string, 0, len(f.written)+len(f.prev.Files))
	for n := range f.written {
		files = append(files, n)
	}
	for n := range f.prev.Files {
		if !f.written[n] {
			files = append(files, n)
		}
	}
	f.mu.Unlock()
	sort.Strings(files)
	var b strings.Builder
	b.WriteString("# kafkagrid build manifest: the files kafkagrid wrote in this folder, which a later build may replace.\n")
	if f.kind != "" {
		b.WriteString("# kind " + f.kind + "\n")
	}
	if o.Release != "" {
		b.WriteString("# release " + o.Release + "\n")
	}
	for _, a := range o.APIs {
		b.WriteString("# api " + a + "\n")
	}
	for _, n := range files {
		b.WriteString(n + "\n")
	}
	return f.place(ManifestName, func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	}, false)
}

// removeOthers removes the files earlier runs wrote that this one did not, never through a
// symbolic link, and forgets them.
func (f *Folder) removeOthers() {
	f.mu.Lock()
	var gone []string
	for rel := range f.prev.Files {
		if !f.written[rel] && rel != ManifestName {
			gone = append(gone, rel)
		}
	}
	f.mu.Unlock()
	sort.Strings(gone)
	for _, rel := range gone {
		p := filepath.Join(f.root, filepath.FromSlash(rel))
		if _, err := os.Lstat(filepath.Dir(p)); err != nil {
			continue
		}
		if err := f.mkdir(filepath.Dir(p)); err != nil { // no link on the way
			continue
		}
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			os.Remove(p)
		}
	}
	f.mu.Lock()
	f.prev.Files = map[string]bool{}
	f.mu.Unlock()
}

// removeStaleTemps removes the temporary files that killed runs left in the folders a run
// writes, and only those: a name of this project's temporary pattern ("." + name +
// tempSuffix + digits, as createTemp makes them), or of the pattern earlier versions used
// ("." + name + ".tmp" + digits) when name is a file the manifest lists. The folders are the
// root, its subfolders and the folders of the manifest's files; it never follows a symbolic
// link to a folder, and a run in progress holds the folder's lock, so its temporaries are not
// stale.
func (f *Folder) removeStaleTemps() {
	dirs := map[string]bool{"": true}
	if entries, err := os.ReadDir(f.root); err == nil {
		for _, e := range entries {
			if e.IsDir() { // a DirEntry of a link is not a folder
				dirs[e.Name()] = true
			}
		}
	}
	for rel := range f.prev.Files {
		if d := filepath.ToSlash(filepath.Dir(filepath.FromSlash(rel))); d != "." {
			dirs[d] = true
		}
	}
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		dir := filepath.Join(f.root, filepath.FromSlash(d))
		if d != "" && f.linkOnTheWay(d) {
			continue // absent, or a link (to someone else's folder, say)
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
			if ours || owner != "" && (f.prev.Files[rel] || rel == ManifestName) {
				os.Remove(filepath.Join(dir, n))
			}
		}
	}
}

// linkOnTheWay reports whether the folder rel (slash-separated, below the root) is absent or
// has a symbolic link or a file on the way to it.
func (f *Folder) linkOnTheWay(rel string) bool {
	at := f.root
	for _, part := range strings.Split(rel, "/") {
		at = filepath.Join(at, part)
		if fi, err := os.Lstat(at); err != nil || !fi.IsDir() {
			return true
		}
	}
	return false
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

// CheckPlan checks, before a run writes its first file, every file it will write (rels,
// slash-separated, relative to root) as Create checks each one: a file in the way that no
// kafkagrid run wrote (not in prev, the folder's manifest; unless force), a symbolic link,
// or something other than a regular file. It reports the first problem, how many files have
// one, and a few of their names, so that a run either writes everything or nothing.
func CheckPlan(root string, force bool, prev Manifest, rels []string) error {
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
			problem = fmt.Errorf("site: write %s: a symbolic link; kafkagrid does not follow links", path)
		case !fi.Mode().IsRegular():
			problem = fmt.Errorf("site: write %s: not a regular file", path)
		case !force && !prev.Files[rel]:
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
	return fmt.Errorf("site: %s %w%s; nothing was written", notOurs[0], ErrNotOurs, more)
}

// Write stores data as the file rel (slash-separated, relative to the folder).
func (f *Folder) Write(rel string, data []byte) error {
	return f.Create(rel, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// ErrNotOurs reports a file in the output folder that no kafkagrid run wrote.
var ErrNotOurs = errors.New("exists and was not written by kafkagrid (not in " + ManifestName + "); move it, or build with -force to replace it")

// Create stores what fill writes (buffered) as the file rel (slash-separated, relative to the
// folder), creating the folders on the way. Errors name the file rel becomes, never the
// temporary file behind it: "site: write out/index.html: permission denied"; an error of fill
// is wrapped as "site: index.html: …".
func (f *Folder) Create(rel string, fill func(io.Writer) error) error {
	return f.place(rel, fill, true)
}

func (f *Folder) place(rel string, fill func(io.Writer) error, record bool) (err error) {
	if err := context.Cause(f.ctx); err != nil && record {
		return err
	}
	path := filepath.Join(f.root, filepath.FromSlash(rel))
	dir := filepath.Dir(path)
	if err := f.mkdir(dir); err != nil {
		return err
	}
	mode := fs.FileMode(0) // a new file keeps what the umask leaves of 0666
	switch fi, err := os.Lstat(path); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return writeError(path, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("site: write %s: a symbolic link; kafkagrid does not follow links", path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("site: write %s: not a regular file", path)
	default:
		if record && !f.force && !f.prev.Files[rel] {
			return fmt.Errorf("site: %s %w", path, ErrNotOurs)
		}
		mode = fi.Mode().Perm() // keep the user's permissions
	}
	tmp, err := openTemp(dir, filepath.Base(path), f.temps)
	if err != nil {
		return writeError(path, err)
	}
	defer tmp.discard()
	n, err := fillFile(tmp.File, fill, path, rel)
	if err != nil {
		return err
	}
	if err := context.Cause(f.ctx); err != nil && record {
		return err // cancelled while it was written: the temporary file goes
	}
	if mode != 0 {
		if err := tmp.Chmod(mode); err != nil {
			return writeError(path, err)
		}
	}
	if err := tmp.Close(); err != nil {
		return writeError(path, err)
	}
	if record {
		f.mu.Lock()
		if f.log != nil && !f.prev.Files[rel] && !f.written[rel] {
			_, err = io.WriteString(f.log, rel+"\n")
		}
		f.written[rel] = true
		f.mu.Unlock()
		if err != nil {
			return writeError(filepath.Join(f.root, ManifestName), err)
		}
	}
	if err := tmp.rename(path); err != nil {
		return writeError(path, err)
	}
	if record {
		f.mu.Lock()
		f.files++
		f.bytes += n
		f.mu.Unlock()
	}
	return nil
}

// temp is the temporary file that stands for a file of the folder until it is renamed into
// place, listed in temps while it is open (Folder.Create and WriteFile write through it).
type temp struct {
	*os.File
	temps  *Temps
	placed bool
}

// errStopped is openTemp's error once the process's temporary files were removed for a forced
// stop (Temps.RemoveAll).
var errStopped = errors.New("stopped: no file is written once the process was told to stop")

// openTemp creates the temporary file of the file base of dir: "." + base + tempSuffix +
// digits, in dir, so that the rename stays on its file system.
func openTemp(dir, base string, temps *Temps) (*temp, error) {
	f, err := temps.create(dir, "."+base+tempSuffix)
	if err != nil {
		return nil, err
	}
	return &temp{File: f, temps: temps}, nil
}

// rename puts the closed temporary file in place as path.
func (t *temp) rename(path string) error {
	if err := renameFile(t.Name(), path); err != nil {
		return err
	}
	t.placed = true
	return nil
}

// discard removes the temporary file unless it was put in place: deferred, it runs on every
// way out of a write, a panic in fill too.
func (t *temp) discard() {
	if !t.placed {
		t.Close()
		os.Remove(t.Name())
	}
	t.temps.Done(t.Name())
}

// createTemp creates a new file in dir named prefix and random digits, with what the umask
// leaves of 0666 (os.CreateTemp's 0600 would need a chmod that ignores the umask).
func createTemp(dir, prefix string) (*os.File, error) {
	for i := 0; ; i++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := openExcl(name)
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
	return fmt.Errorf("site: write %s: %w", path, unwrapPath(err))
}

// unwrapPath drops the file names of an *fs.PathError or *os.LinkError, keeping the cause.
func unwrapPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// mkdir makes dir and the folders above it up to the root, refusing a symbolic link on the way:
// a link inside the output folder could lead the run's files out of it.
func (f *Folder) mkdir(dir string) error {
	f.mu.Lock()
	done := f.dirs[dir]
	f.mu.Unlock()
	if done {
		return nil
	}
	if err := os.MkdirAll(f.root, 0o755); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	rel, err := filepath.Rel(f.root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("site: %s is outside the output folder %s", dir, f.root)
	}
	at := f.root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." || part == "" {
			continue
		}
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(at, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("site: %w", err)
			}
		case err != nil:
			return fmt.Errorf("site: %w", err)
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("site: %s is a symbolic link; kafkagrid does not follow links out of its folder", at)
		case !fi.IsDir():
			return fmt.Errorf("site: %s is not a folder", at)
		}
	}
	f.mu.Lock()
	f.dirs[dir] = true
	f.mu.Unlock()
	return nil
}

// Written lists the files this run has written (the manifest aside), sorted.
func (f *Folder) Written() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, 0, len(f.written))
	for n := range f.written {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Counts is how many files, of how many bytes in all, this run has written (the manifest aside).
func (f *Folder) Counts() (files int, bytes int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.files, f.bytes
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

// Temps is the set of temporary files a build has open, so that a process told to stop can
// remove them when it cannot wait for the build to clean up (an uninterruptible write of the
// book, say). The zero value is ready; a nil *Temps records nothing. It is safe for concurrent use.
type Temps struct {
	mu      sync.Mutex
	names   map[string]bool
	stopped bool // RemoveAll has run: nothing more is created
}

// create creates a temporary file in dir named prefix and digits (createTemp) and records it,
// under the lock, so that RemoveAll either sees it or runs first: after RemoveAll nothing is
// created (errStopped), and a process that exits once RemoveAll returns leaves no temporary
// file whatever its writers were doing.
func (t *Temps) create(dir, prefix string) (*os.File, error) {
	if t == nil {
		return createTemp(dir, prefix)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return nil, errStopped
	}
	f, err := createTemp(dir, prefix)
	if err != nil {
		return nil, err
	}
	if t.names == nil {
		t.names = map[string]bool{}
	}
	t.names[f.Name()] = true
	return f, nil
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

// RemoveAll removes every temporary file still open and forgets them; a temporary file
// is created after it (the write fails).
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
	t.stopped = true
}
