// Package fetch downloads the message schemas of one branch or tag of apache/kafka and keeps
// them in a local cache, for "kafkagrid build -kafka REF".
//
// The schemas are the JSON files in clients/src/main/resources/common/message/ of the Kafka
// source tree. Schemas fetches GitHub's source archive of the ref
// (https://codeload.github.com/apache/kafka/tar.gz/refs/heads/REF, then refs/tags/REF),
// extracts only that folder and stores it under os.UserCacheDir()/kafkagrid/schemas/REF.
//
// # Atomicity
//
// Files are extracted into a temporary directory beside the cache entry, which is renamed into
// place only once the whole archive has been read. An interrupted or failed download leaves no
// cache entry, so the next run starts again instead of using half a folder.
//
// # Trust of input
//
// The archive is untrusted: only regular files directly inside the message folder are taken,
// by base name, each at most MaxFileSize bytes and MaxTotalSize in all; links, devices, nested
// folders and names with path separators are skipped. Errors start with "fetch:".
//
// The download is bounded: no byte for Options.IdleTimeout (30 s) or the whole past
// Options.Timeout (10 minutes) stops it, and so does an archive past MaxArchiveSize, counted
// as it streams. The archive's SHA-256 and each extracted file's are recorded in the entry
// (DigestName) and checked whenever the entry is used again: an entry kafkagrid did not write,
// or one changed since, is refused with its path, as is a cache folder or entry that is a
// symbolic link, not the user's, or writable by others.
//
// # Concurrency
//
// Two processes fetching the same ref at once both download; the first rename wins and the
// other uses its result. A killed download's temporary folder (named with its process id) is
// removed by the next download once that process is gone.
package fetch

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultBaseURL is where GitHub serves apache/kafka's source archives.
const DefaultBaseURL = "https://codeload.github.com/apache/kafka/tar.gz/"

// MessageDir is the folder of the Kafka source tree that holds the message schemas.
const MessageDir = "clients/src/main/resources/common/message/"

// Limits on what an archive may put in the cache.
const (
	MaxFileSize  = 4 << 20  // one schema file
	MaxTotalSize = 64 << 20 // all schema files of one ref
	MaxFiles     = 4096     // files of one ref (Kafka 4.1 has 197)
)

// MaxArchiveSize bounds the compressed archive, counted as it streams (Kafka 4.1's is about
// 20 MB): a larger one is not a Kafka source archive. A variable for the tests.
var MaxArchiveSize int64 = 512 << 20

// MaxInflated bounds the bytes the archive inflates to, counted as they are inflated (Kafka
// 4.1's source tree is about 100 MB), and MaxEntries its entries (about 9,000): an archive
// that claims more (a gzip'd run of zeros inflates a thousandfold) is not a Kafka source
// archive, and stops there, before the disk and the time it would take. Variables for the
// tests.
var (
	MaxInflated int64 = 1 << 30
	MaxEntries        = 100_000
)

// ErrNotFound reports that the ref is neither a branch nor a tag of apache/kafka.
var ErrNotFound = errors.New("fetch: no such branch or tag")

// ErrOffline reports that the archive server could not be reached.
var ErrOffline = errors.New("fetch: cannot reach the archive server (offline?); use -schemas DIR with a local copy of Kafka's " + MessageDir)

// Options configure Schemas. The zero value fetches from GitHub into the user's cache.
type Options struct {
	// BaseURL is the archive server, ending in "/"; "refs/heads/REF" or "refs/tags/REF" is
	// appended. Empty means DefaultBaseURL.
	BaseURL string
	// CacheDir is the folder that holds one subfolder per ref. Empty means
	// os.UserCacheDir()/kafkagrid/schemas.
	CacheDir string
	// Client makes the requests; nil means http.DefaultClient.
	Client *http.Client
	// Log, when not nil, gets one line when a download starts (nothing for a cached ref).
	Log io.Writer
	// IdleTimeout stops a download that receives nothing for that long (0: 30 s), Timeout
	// one that takes longer in all (0: 10 minutes).
	IdleTimeout, Timeout time.Duration
}

// DigestName is the file, in a cache entry, that records the archive's and each file's
// SHA-256: written last, checked whenever the entry is used.
const DigestName = ".kafkagrid-digest"

// Schemas returns the folder holding the message schemas of ref (a branch such as "4.0" or
// "trunk", or a tag such as "4.0.0"), downloading them first when they are not cached.
func Schemas(ctx context.Context, ref string, opts Options) (string, error) {
	if err := checkRef(ref); err != nil {
		return "", err
	}
	cache, err := cacheDir(opts.CacheDir)
	if err != nil {
		return "", err
	}
	dest := filepath.Join(cache, cacheName(ref))
	if _, err := os.Lstat(dest); err == nil {
		if err := Verify(dest); err != nil {
			return "", err
		}
		return dest, nil
	}
	opts = opts.withDefaults()
	ctx, cancelAll := context.WithTimeout(ctx, opts.Timeout)
	defer cancelAll()
	ctx, cancelIdle := context.WithCancelCause(ctx)
	defer cancelIdle(nil)
	idle := time.AfterFunc(opts.IdleTimeout, func() {
		cancelIdle(fmt.Errorf("fetch: nothing received for %v (Options.IdleTimeout)", opts.IdleTimeout))
	})
	defer idle.Stop()
	body, url, err := download(ctx, opts, ref)
	if err != nil {
		return "", err
	}
	defer body.Close()
	if opts.Log != nil {
		fmt.Fprintf(opts.Log, "kafkagrid: downloading the message schemas of apache/kafka %s into %s\n", ref, dest)
	}
	e := pending{ctx: ctx, cache: cache, dest: dest, ref: ref, url: url}
	if err := e.store(&archiveReader{r: body, idle: idle, every: opts.IdleTimeout}); err != nil {
		return "", err
	}
	return dest, nil
}

// cacheDir is the cache folder (dir, or DefaultCacheDir when ""), created when missing and
// checked to be the user's own.
func cacheDir(dir string) (string, error) {
	if dir == "" {
		var err error
		if dir, err = DefaultCacheDir(); err != nil {
			return "", err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("fetch: %w", err)
	}
	if err := checkOwned(dir, true); err != nil {
		return "", err
	}
	return dir, nil
}

// withDefaults fills the options left zero: the timeouts, the server, the HTTP client.
func (opts Options) withDefaults() Options {
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = 30 * time.Second
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Minute
	}
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL
	}
	if !strings.HasSuffix(opts.BaseURL, "/") {
		opts.BaseURL += "/"
	}
	if opts.Client == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.ResponseHeaderTimeout = opts.IdleTimeout
		opts.Client = &http.Client{Transport: tr}
	}
	return opts
}

// download opens the archive of ref, a branch or else a tag: its body and its URL.
func download(ctx context.Context, opts Options, ref string) (io.ReadCloser, string, error) {
	for _, kind := range []string{"heads", "tags"} {
		u := opts.BaseURL + "refs/" + kind + "/" + ref // checkRef allows only URL-safe runes
		b, err := get(ctx, opts.Client, u)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil && !errors.Is(cause, context.Canceled) {
				return nil, "", cause
			}
			return nil, "", err
		}
		return b, u, nil
	}
	return nil, "", fmt.Errorf("%w: %q in apache/kafka", ErrNotFound, ref)
}

// pending is one cache entry being stored: the download's context, the cache folder, the
// entry's path, its ref and the archive's URL.
type pending struct {
	ctx                   context.Context
	cache, dest, ref, url string
}

// store extracts the archive ar reads into a temporary folder beside the entry, records the
// digests, and renames it into place; on failure the temporary folder is removed.
func (e pending) store(ar *archiveReader) error {
	removeStale(e.cache, time.Now())
	tmp, err := os.MkdirTemp(e.cache, ".tmp-"+cacheName(e.ref)+"-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	sum := sha256.New()
	ar.r = io.TeeReader(ar.r, sum)
	n, err := Extract(ar, tmp)
	if err != nil && ar.err != nil {
		err = fmt.Errorf("fetch: %s: %w", e.ref, ar.err)
	} else if cause := context.Cause(e.ctx); err != nil && cause != nil && !errors.Is(cause, context.Canceled) {
		err = cause
	}
	if err == nil && n == 0 {
		err = fmt.Errorf("fetch: the archive of %q holds no %s*.json", e.ref, MessageDir)
	}
	if err == nil {
		err = writeDigest(tmp, e.url, hex.EncodeToString(sum.Sum(nil)))
	}
	if err == nil {
		err = os.Chmod(tmp, 0o755)
	}
	if err == nil {
		err = os.Rename(tmp, e.dest)
		if err != nil {
			if fi, serr := os.Stat(e.dest); serr == nil && fi.IsDir() {
				err = nil // another process finished first
			}
		}
	}
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("fetch: %s: %w", e.ref, err)
	}
	os.RemoveAll(tmp) // a no-op unless another process won the rename
	return nil
}

// archiveReader counts the archive's bytes as they come, fails past MaxArchiveSize, and keeps
// the idle timer from firing while bytes arrive.
type archiveReader struct {
	r     io.Reader
	n     int64
	err   error
	idle  *time.Timer
	every time.Duration
}

func (a *archiveReader) Read(p []byte) (int, error) {
	if a.err != nil {
		return 0, a.err
	}
	n, err := a.r.Read(p)
	if n > 0 {
		a.idle.Reset(a.every)
	}
	if a.n += int64(n); a.n > MaxArchiveSize {
		a.err = fmt.Errorf("the archive is larger than %d bytes (MaxArchiveSize): not a Kafka source archive", MaxArchiveSize)
		return n, a.err
	}
	return n, err
}

// writeDigest records, in dir, the archive's SHA-256 and each file's.
func writeDigest(dir, url, archive string) error {
	lines, err := digests(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# kafkagrid: the schemas of %s, archive sha256 %s\n", url, archive)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return os.WriteFile(filepath.Join(dir, DigestName), []byte(b.String()), 0o644)
}

// digests is "SHA256  NAME" for each file of dir but the digest, in name order.
func digests(dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	var out []string
	total := 0
	for _, e := range es {
		if e.Name() == DigestName {
			continue
		}
		if !e.Type().IsRegular() {
			return nil, fmt.Errorf("fetch: %s: not a regular file", filepath.Join(dir, e.Name()))
		}
		if total++; total > MaxFiles {
			return nil, fmt.Errorf("fetch: %s: more than %d files", dir, MaxFiles)
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("fetch: %w", err)
		}
		h := sha256.New()
		_, err = io.Copy(h, io.LimitReader(f, MaxFileSize+1))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("fetch: %w", err)
		}
		out = append(out, hex.EncodeToString(h.Sum(nil))+"  "+e.Name())
	}
	return out, nil
}

// Verify checks a cache entry: a folder of the user's, not writable by others, holding exactly
// the files its digest lists, with their SHA-256. The error names the folder and says to
// remove it to download again.
func Verify(dir string) error {
	if err := checkOwned(dir, false); err != nil {
		return err
	}
	bad := func(why string) error {
		return fmt.Errorf("fetch: the cached schemas in %s %s: remove that folder to download them again", dir, why)
	}
	raw, err := os.ReadFile(filepath.Join(dir, DigestName))
	if err != nil || len(raw) > 1<<20 {
		return bad("have no digest (" + DigestName + "): they were not downloaded by this kafkagrid, or the download was cut short")
	}
	want := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(want) == 0 || !strings.HasPrefix(want[0], "# kafkagrid: ") {
		return bad("have a digest kafkagrid did not write")
	}
	got, err := digests(dir)
	if err != nil {
		return bad("cannot be read: " + err.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want[1:], "\n") {
		return bad("changed since they were downloaded (their digest " + DigestName + " does not match)")
	}
	return nil
}

// staleAfter is how long a download's temporary folder may go unmodified before a later
// download takes it for a killed one's and removes it.
const staleAfter = 10 * time.Minute

// removeStale removes the temporary folders that killed downloads left in the cache.
func removeStale(cache string, now time.Time) {
	entries, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), ".tmp-") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		// ".tmp-NAME-PID-RANDOM": a download whose process is gone left it.
		parts := strings.Split(e.Name(), "-")
		dead := false
		if len(parts) >= 4 {
			if pid, err := strconv.Atoi(parts[len(parts)-2]); err == nil && pid > 0 && pid != os.Getpid() {
				dead = !processAlive(pid)
			}
		}
		if dead || now.Sub(fi.ModTime()) > staleAfter {
			os.RemoveAll(filepath.Join(cache, e.Name()))
		}
	}
}

// DefaultCacheDir is the cache folder used when Options.CacheDir is empty:
// os.UserCacheDir()/kafkagrid/schemas.
func DefaultCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("fetch: no cache folder: %w", err)
	}
	return filepath.Join(base, "kafkagrid", "schemas"), nil
}

func get(ctx context.Context, client *http.Client, u string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("fetch: %w", ctx.Err())
		}
		var ne net.Error
		var oe *net.OpError
		var de *net.DNSError
		if errors.As(err, &de) || errors.As(err, &oe) || (errors.As(err, &ne) && ne.Timeout()) {
			return nil, fmt.Errorf("%w: %v", ErrOffline, err)
		}
		return nil, fmt.Errorf("fetch: %w", err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		resp.Body.Close()
		return nil, ErrNotFound
	case resp.StatusCode != http.StatusOK:
		resp.Body.Close()
		return nil, fmt.Errorf("fetch: GET %s: %s", u, resp.Status)
	}
	return resp.Body, nil
}

// Extract reads a gzip-compressed tar archive of a Kafka source tree (one top-level folder, as
// GitHub makes them) and writes the files of its message folder into dir, by base name. It
// returns how many .json files it wrote.
func Extract(r io.Reader, dir string) (int, error) {
	n, _, err := extract(r, dir)
	return n, err
}

// extract is Extract; it returns the bytes inflated too.
func extract(r io.Reader, dir string) (int, int64, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return 0, 0, fmt.Errorf("fetch: archive: %w", err)
	}
	zr := &inflated{r: gz}
	jsons, err := extractTar(zr, dir)
	return jsons, zr.n, err
}

// inflated counts the bytes inflated, and fails past MaxInflated.
type inflated struct {
	r io.Reader
	n int64
}

func (z *inflated) Read(p []byte) (int, error) {
	if z.n >= MaxInflated {
		return 0, fmt.Errorf("the archive inflates to more than %d bytes (MaxInflated): not a Kafka source archive", MaxInflated)
	}
	p = p[:min(int64(len(p)), MaxInflated-z.n+1)]
	n, err := z.r.Read(p)
	z.n += int64(n)
	if z.n > MaxInflated {
		return n, fmt.Errorf("the archive inflates to more than %d bytes (MaxInflated): not a Kafka source archive", MaxInflated)
	}
	return n, err
}

func extractTar(zr io.Reader, dir string) (int, error) {
	tr := tar.NewReader(zr)
	var total int64
	jsons, files, entries := 0, 0, 0
	for {
		if entries++; entries > MaxEntries {
			return jsons, fmt.Errorf("fetch: archive: more than %d entries (MaxEntries): not a Kafka source archive", MaxEntries)
		}
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return jsons, fmt.Errorf("fetch: archive: %w", err)
		}
		name := messageFile(h.Name)
		if name == "" || h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size > MaxFileSize {
			return jsons, fmt.Errorf("fetch: archive: %s: %d bytes is more than %d", h.Name, h.Size, MaxFileSize)
		}
		total += h.Size
		if total > MaxTotalSize {
			return jsons, fmt.Errorf("fetch: archive: message files exceed %d bytes", MaxTotalSize)
		}
		if files++; files > MaxFiles {
			return jsons, fmt.Errorf("fetch: archive: more than %d message files", MaxFiles)
		}
		if err := writeFile(filepath.Join(dir, name), io.LimitReader(tr, MaxFileSize)); err != nil {
			return jsons, err
		}
		if strings.HasSuffix(name, ".json") {
			jsons++
		}
	}
	// Read to the end of the gzip stream so a truncated download is an error; after the tar's
	// end only padding may follow.
	n, err := io.Copy(io.Discard, io.LimitReader(zr, 1<<20))
	if err != nil {
		return jsons, fmt.Errorf("fetch: archive: %w", err)
	}
	if n == 1<<20 {
		return jsons, fmt.Errorf("fetch: archive: data after the end of the tar")
	}
	return jsons, nil
}

// messageFile returns the base name of an archive entry directly inside the message folder
// (under the archive's one top-level folder), or "".
func messageFile(name string) string {
	_, rest, ok := strings.Cut(name, "/")
	if !ok {
		return ""
	}
	base, ok := strings.CutPrefix(rest, MessageDir)
	if !ok || base == "" || strings.ContainsAny(base, `/\`) || base == "." || base == ".." ||
		strings.HasPrefix(base, ".") {
		return ""
	}
	return base
}

func writeFile(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("fetch: archive: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	return nil
}

func checkRef(ref string) error {
	if ref == "" || ref == "." || ref == ".." || strings.Contains(ref, "..") || strings.Contains(ref, "//") ||
		strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/") || len(ref) > 200 ||
		strings.HasPrefix(ref, "-") || strings.HasPrefix(ref, ".") {
		return fmt.Errorf("fetch: bad ref %q", ref)
	}
	for _, r := range ref {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '.' || r == '-' || r == '_' || r == '/'
		if !ok {
			return fmt.Errorf("fetch: bad ref %q: only letters, digits and . - _ / allowed", ref)
		}
	}
	return nil
}

// cacheName is the cache folder's name for ref: "/" (as in "release/4.0") becomes "%2F", so
// that no two refs share a folder ("release_4.0" keeps its name; a ref has no "%").
func cacheName(ref string) string { return strings.ReplaceAll(ref, "/", "%2F") }
