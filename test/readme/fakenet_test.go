package readme

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fakeNet stands in for the published sources on 127.0.0.1: an npm
// registry serving the dist's npm tarballs, and GitHub's release downloads
// and latest-release API serving the dist's archives. Anything else is a
// 404, so a README line that reaches for something the dist does not hold
// fails here instead of quietly fetching it from the internet.
type fakeNet struct {
	*httptest.Server
	dist    string
	version string                     // the release's version, no leading v
	pkgs    map[string]json.RawMessage // npm packuments by package name
}

// The repository whose releases the README downloads.
const releaseRepo = "atreides-dev/atreides"

// startFakeNet serves dist until the test ends.
func startFakeNet(t *testing.T, dist, version string) *fakeNet {
	t.Helper()
	f := &fakeNet{dist: dist, version: version}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/repos/"+releaseRepo+"/releases/latest", f.latest)
	mux.HandleFunc("GET /github/"+releaseRepo+"/releases/download/{tag}/{file}", f.asset)
	mux.HandleFunc("GET /-/npm/{file}", f.tarball)
	mux.HandleFunc("GET /", f.packument)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	pkgs, err := packuments(filepath.Join(dist, "npm"), f.URL+"/-/npm/")
	if err != nil {
		t.Fatal(err)
	}
	f.pkgs = pkgs
	return f
}

func (f *fakeNet) latest(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, "{\n  \"tag_name\": \"v%s\",\n  \"name\": \"v%s\"\n}\n", f.version, f.version)
}

// asset serves a file of the dist's top level for the release's own tag.
func (f *fakeNet) asset(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	if r.PathValue("tag") != "v"+f.version || !plainName(file) {
		http.NotFound(w, r)
		return
	}
	http.ServeFile(w, r, filepath.Join(f.dist, file))
}

func (f *fakeNet) tarball(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	if !plainName(file) || !strings.HasSuffix(file, ".tgz") {
		http.NotFound(w, r)
		return
	}
	http.ServeFile(w, r, filepath.Join(f.dist, "npm", file))
}

// packument answers npm's metadata request for a package: the path is the
// package's name, its scope's slash escaped as %2f (which URL.Path has
// already decoded).
func (f *fakeNet) packument(w http.ResponseWriter, r *http.Request) {
	doc, ok := f.pkgs[strings.TrimPrefix(r.URL.Path, "/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(doc)
}

// plainName: a file name of the directory itself, no path.
func plainName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\`)
}

// packuments builds npm's metadata document for every tarball in dir: the
// package.json the tarball holds, plus where to download it and its
// sha512 integrity and sha1 shasum, which npm checks.
func packuments(dir, base string) (map[string]json.RawMessage, error) {
	tgzs, err := filepath.Glob(filepath.Join(dir, "*.tgz"))
	if err != nil || len(tgzs) == 0 {
		return nil, fmt.Errorf("no npm tarballs in %s (err %v)", dir, err)
	}
	type versions = map[string]map[string]any
	byName := map[string]versions{}
	for _, tgz := range tgzs {
		manifest, err := tarballManifest(tgz)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(tgz)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", tgz, err)
		}
		s512, s1 := sha512.Sum512(data), sha1.Sum(data)
		manifest["dist"] = map[string]string{
			"tarball":   base + filepath.Base(tgz),
			"integrity": "sha512-" + base64.StdEncoding.EncodeToString(s512[:]),
			"shasum":    hex.EncodeToString(s1[:]),
		}
		name, _ := manifest["name"].(string)
		version, _ := manifest["version"].(string)
		if name == "" || version == "" {
			return nil, fmt.Errorf("%s: package.json has no name or version", tgz)
		}
		if byName[name] == nil {
			byName[name] = versions{}
		}
		byName[name][version] = manifest
	}
	out := map[string]json.RawMessage{}
	for name, vs := range byName {
		if len(vs) != 1 {
			return nil, fmt.Errorf("%s: %d versions in %s, want one", name, len(vs), dir)
		}
		var latest string
		for v := range vs {
			latest = v
		}
		doc, err := json.Marshal(map[string]any{"name": name, "dist-tags": map[string]string{"latest": latest}, "versions": vs})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = doc
	}
	return out, nil
}

// tarballManifest reads package/package.json out of an npm tarball.
func tarballManifest(tgz string) (map[string]any, error) {
	f, err := os.Open(tgz)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", tgz, err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tgz, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s holds no package/package.json", tgz)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tgz, err)
		}
		if h.Name != "package/package.json" {
			continue
		}
		var m map[string]any
		if err := json.NewDecoder(tr).Decode(&m); err != nil {
			return nil, fmt.Errorf("%s: package.json: %w", tgz, err)
		}
		return m, nil
	}
}

// archiveName is the linux-amd64 release archive's name, which gives the
// release's version.
var archiveName = regexp.MustCompile(`^atreides_(.+)_linux_amd64\.tar\.gz$`)

// releaseVersion is the version of the release in dist, from its archive.
func releaseVersion(dist string) (string, error) {
	entries, err := os.ReadDir(dist)
	if err != nil {
		return "", fmt.Errorf("read the dist: %w", err)
	}
	for _, e := range entries {
		if m := archiveName.FindStringSubmatch(e.Name()); m != nil {
			return m[1], nil
		}
	}
	return "", fmt.Errorf("%s holds no atreides_<version>_linux_amd64.tar.gz", dist)
}
