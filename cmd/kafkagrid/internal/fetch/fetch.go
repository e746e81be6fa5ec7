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
// # Concurrency
//
// Two processes fetching the same ref at once both download; the first rename wins and the
// other uses its result.
package fetch

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
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
}

// Schemas returns the folder holding the message schemas of ref (a branch such as "4.0" or
// "trunk", or a tag such as "4.0.0"), downloading them first when they are not cached.
func Schemas(ctx context.Context, ref string, opts Options) (string, error) {
	if err := checkRef(ref); err != nil {
		return "", err
	}
	cache := opts.CacheDir
	if cache == "" {
		var err error
		if cache, err = DefaultCacheDir(); err != nil {
			return "", err
		}
	}
	dest := filepath.Join(cache, cacheName(ref))
	if fi, err := os.Stat(dest); err == nil && fi.IsDir() {
		return dest, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", fmt.Errorf("fetch: %w", err)
	}
	base := opts.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	client := opts.Client
	if client == nil {
		client = http.DefaultClient
	}
	var body io.ReadCloser
	for _, kind := range []string{"heads", "tags"} {
		u := base + "refs/" + kind + "/" + ref // checkRef allows only URL-safe runes
		b, err := get(ctx, client, u)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return "", err
		}
		body = b
		break
	}
	if body == nil {
		return "", fmt.Errorf("%w: %q in apache/kafka", ErrNotFound, ref)
	}
	defer body.Close()
	if opts.Log != nil {
		fmt.Fprintf(opts.Log, "kafkagrid: downloading the message schemas of apache/kafka %s into %s\n", ref, dest)
	}

	removeStale(cache, time.Now())
	tmp, err := os.MkdirTemp(cache, ".tmp-"+cacheName(ref)+"-")
	if err != nil {
		return "", fmt.Errorf("fetch: %w", err)
	}
	n, err := Extract(body, tmp)
	if err == nil && n == 0 {
		err = fmt.Errorf("fetch: the archive of %q holds no %s*.json", ref, MessageDir)
	}
	if err == nil {
		err = os.Chmod(tmp, 0o755)
	}
	if err == nil {
		err = os.Rename(tmp, dest)
		if err != nil {
			if fi, serr := os.Stat(dest); serr == nil && fi.IsDir() {
				err = nil // another process finished first
			}
		}
	}
	if err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("fetch: %s: %w", ref, err)
	}
	os.RemoveAll(tmp) // a no-op unless another process won the rename
	return dest, nil
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
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > staleAfter {
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
	zr, err := gzip.NewReader(r)
	if err != nil {
		return 0, fmt.Errorf("fetch: archive: %w", err)
	}
	tr := tar.NewReader(zr)
	var total int64
	jsons, files := 0, 0
	for {
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
	if ref == "" || ref == "." || ref == ".." || strings.Contains(ref, "..") ||
		strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/") || len(ref) > 200 {
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

// cacheName is the cache folder's name for ref: "/" (as in "release/4.0") becomes "_".
func cacheName(ref string) string { return strings.ReplaceAll(ref, "/", "_") }
