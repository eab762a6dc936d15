package release

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// buildinfoPkg is the package whose variables the linker stamps.
const buildinfoPkg = "github.com/atreides-dev/atreides/internal/buildinfo"

// Programs are the programs of a release: every directory of cmd/ with a
// main.go, sorted, so a new companion ships without a change here.
func Programs(root string) ([]string, error) {
	mains, err := filepath.Glob(filepath.Join(root, "cmd", "*", "main.go"))
	if err != nil {
		return nil, fmt.Errorf("list the programs: %w", err)
	}
	var out []string
	for _, m := range mains {
		out = append(out, filepath.Base(filepath.Dir(m)))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no program under %s", filepath.Join(root, "cmd"))
	}
	sort.Strings(out)
	return out, nil
}

// ldflags strips the symbol table and stamps s into package buildinfo.
func ldflags(s Stamp) string {
	return strings.Join([]string{
		"-s", "-w",
		"-X", buildinfoPkg + ".version=" + s.Version,
		"-X", buildinfoPkg + ".commit=" + s.Commit,
		"-X", buildinfoPkg + ".date=" + s.Date(),
	}, " ")
}

// job is one program built for one target.
type job struct {
	t       Target
	program string
}

// buildAll builds every program for every target into binDir/<os>-<arch>/,
// at most jobs builds at once (each go build is itself parallel; more at
// once only thrashes a small machine).
func buildAll(ctx context.Context, root, binDir string, s Stamp, targets []Target, programs []string, jobs int) error {
	var work []job
	for _, t := range targets {
		for _, p := range programs {
			work = append(work, job{t, p})
		}
	}
	// The first failure stops the builds still to come: a broken target
	// is reported in seconds, not after every other one is built.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sem := make(chan struct{}, max(jobs, 1))
	var wg sync.WaitGroup
	for _, j := range work {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := build(ctx, root, binDir, s, j); err != nil {
				cancel(err)
			}
		}()
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return nil
}

// build runs one go build.
func build(ctx context.Context, root, binDir string, s Stamp, j job) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	out := filepath.Join(binDir, j.t.String(), j.t.Exe(j.program))
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", ldflags(s), "-o", out, "./cmd/"+j.program)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+j.t.OS, "GOARCH="+j.t.Arch)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build %s for %s: %w\n%s", j.program, j.t, err, msg)
	}
	return nil
}
