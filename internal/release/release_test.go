package release

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/guard"
)

// testPrograms are atreides's programs as the guard protects them, in
// the order Programs lists them.
var testPrograms = func() []string {
	p := guard.Programs()
	slices.Sort(p)
	return p
}()

var testTime = time.Date(2026, 11, 29, 10, 11, 12, 0, time.UTC)

// fakeRelease lays out a checkout (LICENSE, README.md) and a bin/ with a
// small file per program and target, as buildAll leaves it, and packs
// them into out.
func fakeRelease(t *testing.T, targets []Target) (out string, files []string) {
	t.Helper()
	root, out := t.TempDir(), t.TempDir()
	write(t, filepath.Join(root, "LICENSE"), "license text\n", 0o600)
	write(t, filepath.Join(root, "README.md"), "# atreides\n", 0o600)
	binDir := filepath.Join(out, "bin")
	for _, tg := range targets {
		for _, p := range testPrograms {
			// 0700 on disk: the archive's modes must not depend on it.
			write(t, filepath.Join(binDir, tg.String(), tg.Exe(p)), "binary "+p+" "+tg.String(), 0o700)
		}
	}
	o := Options{Root: root, Out: out, Targets: targets}
	s := Stamp{Version: "v1.2.3", Commit: "abc", Time: testTime}
	files, err := pack(o, s, binDir, testPrograms)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeChecksums(out, files); err != nil {
		t.Fatal(err)
	}
	return out, files
}

func write(t *testing.T, file, body string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

// tarEntry is what a test checks of an archive entry.
type tarEntry struct {
	mode  int64
	mtime time.Time
	body  string
}

func readTarGz(t *testing.T, file string) map[string]tarEntry {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	out := map[string]tarEntry{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" {
			t.Errorf("%s: %s has an owner (%d/%d %q/%q)", file, h.Name, h.Uid, h.Gid, h.Uname, h.Gname)
		}
		out[h.Name] = tarEntry{h.Mode, h.ModTime.UTC(), string(b)}
	}
}

func TestTargets(t *testing.T) {
	if got := targetList(DefaultTargets()); got != "linux/amd64, linux/arm64, darwin/amd64, darwin/arm64, windows/amd64, windows/arm64" {
		t.Errorf("default targets = %s", got)
	}
	got, err := ParseTargets("linux/amd64, windows/arm64,linux/amd64")
	if err != nil || !slices.Equal(got, []Target{{"linux", "amd64"}, {"windows", "arm64"}}) {
		t.Errorf("ParseTargets = %v, %v", got, err)
	}
	for _, bad := range []string{"", "linux", "plan9/amd64", "linux/386"} {
		if _, err := ParseTargets(bad); err == nil {
			t.Errorf("ParseTargets(%q) took it", bad)
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Target{"linux", "amd64"}.ArchiveName("1.2.3"), "atreides_1.2.3_linux_amd64.tar.gz"},
		{Target{"windows", "arm64"}.ArchiveName("1.2.3"), "atreides_1.2.3_windows_arm64.zip"},
		{Target{"windows", "amd64"}.Exe("atreides-ui"), "atreides-ui.exe"},
		{Target{"darwin", "arm64"}.Exe("atreides"), "atreides"},
		{npmPlatformName(Target{"linux", "amd64"}), "@atreides-dev/atreides-linux-x64"},
		{npmPlatformName(Target{"windows", "arm64"}), "@atreides-dev/atreides-win32-arm64"},
		{npmPlatformName(Target{"darwin", "arm64"}), "@atreides-dev/atreides-darwin-arm64"},
		{tarballName(NpmMain, "1.2.3"), "atreides-dev-atreides-1.2.3.tgz"},
		{Stamp{Version: "v0.0.0-snapshot-0123abc"}.SemVer(), "0.0.0-snapshot-0123abc"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestPrograms: every program of cmd/ ships, and only programs, and they
// are the ones the guard protects as atreides's own (a new program under
// cmd/ that the guard does not know would ship unprotected).
func TestPrograms(t *testing.T) {
	got, err := Programs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, testPrograms) {
		t.Errorf("Programs = %v, want %v", got, testPrograms)
	}
}

func TestTarArchive(t *testing.T) {
	out, _ := fakeRelease(t, []Target{{"linux", "arm64"}})
	got := readTarGz(t, filepath.Join(out, "atreides_1.2.3_linux_arm64.tar.gz"))
	top := "atreides_1.2.3_linux_arm64/"
	want := map[string]int64{top + "LICENSE": 0o644, top + "README.md": 0o644}
	for _, p := range testPrograms {
		want[top+p] = 0o755
	}
	if len(got) != len(want) {
		t.Errorf("archive holds %d files, want %d: %v", len(got), len(want), got)
	}
	for name, mode := range want {
		e, ok := got[name]
		switch {
		case !ok:
			t.Errorf("archive lacks %s", name)
		case e.mode != mode:
			t.Errorf("%s: mode %o, want %o", name, e.mode, mode)
		case !e.mtime.Equal(testTime):
			t.Errorf("%s: mtime %s, want the commit's %s", name, e.mtime, testTime)
		}
	}
	if b := got[top+"atreides-mcp"].body; b != "binary atreides-mcp linux-arm64" {
		t.Errorf("atreides-mcp holds %q", b)
	}
}

func TestZipArchive(t *testing.T) {
	out, _ := fakeRelease(t, []Target{{"windows", "amd64"}})
	zr, err := zip.OpenReader(filepath.Join(out, "atreides_1.2.3_windows_amd64.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		want := os.FileMode(0o644)
		if strings.HasSuffix(f.Name, ".exe") {
			want = 0o755
		}
		if f.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", f.Name, f.Mode(), want)
		}
		if !f.Modified.UTC().Equal(testTime) {
			t.Errorf("%s: modified %s, want %s", f.Name, f.Modified.UTC(), testTime)
		}
	}
	top := "atreides_1.2.3_windows_amd64/"
	for _, want := range []string{top + "atreides.exe", top + "atreides-team.exe", top + "LICENSE", top + "README.md"} {
		if !slices.Contains(names, want) {
			t.Errorf("zip lacks %s: %v", want, names)
		}
	}
}

// TestReproducible: the same inputs give byte-identical archives.
func TestReproducible(t *testing.T) {
	tg := []Target{{"linux", "amd64"}}
	a, _ := fakeRelease(t, tg)
	b, _ := fakeRelease(t, tg)
	ca, _ := os.ReadFile(filepath.Join(a, ChecksumsFile))
	cb, _ := os.ReadFile(filepath.Join(b, ChecksumsFile))
	if string(ca) != string(cb) || len(ca) == 0 {
		t.Errorf("two packs of the same files differ:\n%s\n%s", ca, cb)
	}
}

func TestChecksums(t *testing.T) {
	out, files := fakeRelease(t, []Target{{"linux", "amd64"}, {"windows", "arm64"}})
	b, err := os.ReadFile(filepath.Join(out, ChecksumsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != len(files) || len(files) != 5 { // 2 archives, main + 2 platform packages
		t.Errorf("checksums has %d lines for %d files:\n%s", len(lines), len(files), b)
	}
	if !slices.IsSortedFunc(lines, func(x, y string) int { return strings.Compare(x[66:], y[66:]) }) {
		t.Errorf("checksums are not sorted by name:\n%s", b)
	}
	if _, err := exec.LookPath("sha256sum"); err != nil {
		if os.Getenv("ATREIDES_E2E_REQUIRE") != "" {
			t.Fatal("sha256sum is missing")
		}
		t.Skip("sha256sum is missing: cannot check the file with it")
	}
	cmd := exec.Command("sha256sum", "--strict", "-c", ChecksumsFile)
	cmd.Dir = out
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c: %v\n%s", err, msg)
	}
	// and it fails on a changed file, so the check above means something
	write(t, files[0], "tampered", 0o644)
	if err := cmd.Run(); err == nil {
		t.Error("sha256sum -c passes a changed archive")
	}
}

func readPackageJSON(t *testing.T, tgz string) (packageJSON, map[string]tarEntry) {
	t.Helper()
	entries := readTarGz(t, tgz)
	for name := range entries {
		if !strings.HasPrefix(name, "package/") {
			t.Errorf("%s: %s is outside package/", tgz, name)
		}
	}
	var pj packageJSON
	if err := json.Unmarshal([]byte(entries["package/package.json"].body), &pj); err != nil {
		t.Fatalf("%s: package.json: %v", tgz, err)
	}
	return pj, entries
}

func TestNpmPackages(t *testing.T) {
	out, _ := fakeRelease(t, DefaultTargets())
	main, entries := readPackageJSON(t, filepath.Join(out, "npm", "atreides-dev-atreides-1.2.3.tgz"))
	if main.Name != NpmMain || main.Version != "1.2.3" || main.License != "Apache-2.0" {
		t.Errorf("main package: %+v", main)
	}
	if main.Bin["atreides"] != "bin/atreides" || len(main.Bin) != 1 {
		t.Errorf("main bin = %v", main.Bin)
	}
	if len(main.OptionalDependencies) != 6 {
		t.Errorf("main has %d optional dependencies, want 6: %v", len(main.OptionalDependencies), main.OptionalDependencies)
	}
	for dep, v := range main.OptionalDependencies {
		if v != "1.2.3" {
			t.Errorf("%s at %q, want exactly 1.2.3", dep, v)
		}
	}
	if s := main.Scripts["postinstall"]; s != "node install.js" || entries["package/install.js"].body == "" {
		t.Errorf("postinstall = %q", s)
	}
	if e := entries["package/bin/atreides"]; e.mode != 0o755 || !strings.HasPrefix(e.body, "#!/usr/bin/env node\n") {
		t.Errorf("bin/atreides: mode %o, starts %.30q", e.mode, e.body)
	}
	for _, js := range []string{"package/install.js", "package/lib/platform.js", "package/bin/atreides"} {
		if b := entries[js].body; strings.Contains(b, "http") || strings.Contains(b, "fetch(") {
			t.Errorf("%s may use the network", js)
		}
	}
	for _, tg := range DefaultTargets() {
		name := npmPlatformName(tg)
		if _, ok := main.OptionalDependencies[name]; !ok {
			t.Errorf("main does not depend on %s", name)
		}
		p, entries := readPackageJSON(t, filepath.Join(out, "npm", tarballName(name, "1.2.3")))
		if p.Name != name || p.Version != "1.2.3" || p.License != "Apache-2.0" || !p.PreferUnplugged ||
			!slices.Equal(p.OS, []string{tg.NpmOS()}) || !slices.Equal(p.CPU, []string{tg.NpmCPU()}) || p.Bin != nil {
			t.Errorf("%s: %+v", name, p)
		}
		for _, prog := range testPrograms {
			if e, ok := entries["package/bin/"+tg.Exe(prog)]; !ok || e.mode != 0o755 {
				t.Errorf("%s: bin/%s missing or mode %o", name, tg.Exe(prog), e.mode)
			}
		}
		if entries["package/LICENSE"].body != "license text\n" {
			t.Errorf("%s: no LICENSE", name)
		}
	}
}

func TestPrepareOut(t *testing.T) {
	foreign := t.TempDir()
	write(t, filepath.Join(foreign, "precious.txt"), "keep me", 0o644)
	if err := prepareOut(foreign); err == nil || !strings.Contains(err.Error(), "refusing to wipe") {
		t.Errorf("prepareOut of a foreign directory = %v", err)
	}
	if _, err := os.Stat(filepath.Join(foreign, "precious.txt")); err != nil {
		t.Errorf("the foreign directory lost its file: %v", err)
	}
	earlier := filepath.Join(t.TempDir(), "dist")
	if err := prepareOut(earlier); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(earlier, "old.tar.gz"), "old", 0o644)
	if err := prepareOut(earlier); err != nil {
		t.Fatalf("prepareOut of an earlier release: %v", err)
	}
	if _, err := os.Stat(filepath.Join(earlier, "old.tar.gz")); err == nil {
		t.Error("the earlier release was not wiped")
	}
	if _, err := os.Stat(filepath.Join(earlier, Marker)); err != nil {
		t.Errorf("no marker after prepareOut: %v", err)
	}
}

// fakeGit answers ReadStamp's questions.
func fakeGit(status, tags string) gitFunc {
	return func(_ context.Context, args ...string) (string, error) {
		switch args[0] {
		case "rev-parse":
			return "0123456789ab", nil
		case "show":
			return "2026-11-29T11:11:12+01:00", nil
		case "status":
			return status, nil
		case "tag":
			return tags, nil
		}
		return "", nil
	}
}

func TestReadStamp(t *testing.T) {
	ctx := context.Background()
	s, err := ReadStamp(ctx, fakeGit(" M x.go", ""), true)
	if err != nil || s.Version != "v0.0.0-snapshot-0123456789ab" || s.Commit != "0123456789ab+dirty" || s.Date() != "2026-11-29T10:11:12Z" {
		t.Errorf("snapshot of a dirty tree = %+v (%s), %v", s, s.Date(), err)
	}
	if _, err := ReadStamp(ctx, fakeGit(" M x.go", "v1.0.0"), false); err == nil || !strings.Contains(err.Error(), "uncommitted") {
		t.Errorf("a release of a dirty tree: %v", err)
	}
	if _, err := ReadStamp(ctx, fakeGit("", "v1.0\nlatest"), false); err == nil || !strings.Contains(err.Error(), "no release tag") {
		t.Errorf("a release of an untagged HEAD: %v", err)
	}
	s, err = ReadStamp(ctx, fakeGit("", "latest\nv1.2.3"), false)
	if err != nil || s.Version != "v1.2.3" || s.Commit != "0123456789ab" {
		t.Errorf("a release of a tagged HEAD = %+v, %v", s, err)
	}
}

func TestLdflags(t *testing.T) {
	got := ldflags(Stamp{Version: "v1.2.3", Commit: "abc", Time: testTime})
	for _, want := range []string{"-s -w", buildinfoPkg + ".version=v1.2.3", buildinfoPkg + ".commit=abc", buildinfoPkg + ".date=2026-11-29T10:11:12Z"} {
		if !strings.Contains(got, want) {
			t.Errorf("ldflags %q lack %q", got, want)
		}
	}
}

// TestNotInHookBinary: the hook binary, started on every hook event,
// never links the release tool.
func TestNotInHookBinary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../../cmd/atreides").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "/internal/release\n") {
		t.Error("cmd/atreides links internal/release")
	}
	if !strings.Contains(string(out), "/internal/buildinfo\n") {
		t.Error("go list -deps does not list internal/buildinfo: the check above checks nothing")
	}
}

// TestRunNeedsLicense: a checkout without LICENSE makes no release, and
// says why, before building anything or touching the output.
func TestRunNeedsLicense(t *testing.T) {
	root, out := t.TempDir(), filepath.Join(t.TempDir(), "dist")
	_, err := Run(context.Background(), Options{Root: root, Out: out, Snapshot: true})
	if err == nil || !strings.Contains(err.Error(), "LICENSE") {
		t.Errorf("Run without LICENSE = %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("Run without LICENSE made the output directory")
	}
}

// TestBuildAll builds a tiny module's programs with the stamp, and
// reports the program that does not compile.
func TestBuildAll(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.22\n", 0o644)
	write(t, filepath.Join(root, "cmd", "good", "main.go"), "package main\n\nvar version string\n\nfunc main() { println(version) }\n", 0o644)
	write(t, filepath.Join(root, "cmd", "bad", "main.go"), "package main\n\nfunc main() { undefined() }\n", 0o644)
	progs, err := Programs(root)
	if err != nil || !slices.Equal(progs, []string{"bad", "good"}) {
		t.Fatalf("Programs = %v, %v", progs, err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	host := Target{runtime.GOOS, runtime.GOARCH}
	s := Stamp{Version: "v1.2.3", Commit: "abc", Time: testTime}
	if err := buildAll(context.Background(), root, bin, s, []Target{host}, []string{"good"}, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(bin, host.String(), host.Exe("good"))); err != nil {
		t.Errorf("no program built: %v", err)
	}
	err = buildAll(context.Background(), root, bin, s, []Target{host}, progs, 2)
	if err == nil || !strings.Contains(err.Error(), "build bad for "+host.String()) || !strings.Contains(err.Error(), "undefined") {
		t.Errorf("a program that does not compile: %v", err)
	}
}
