package release

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// Stamp is what every program of a release is stamped with.
type Stamp struct {
	Version string    // "v0.3.0" or "v0.0.0-snapshot-abc1234def56"
	Commit  string    // short commit, "+dirty" when the tree had changes
	Time    time.Time // the commit's time, UTC: the builds' date and the archives' mtime
}

// SemVer is the version without its "v", as file names and npm use it.
func (s Stamp) SemVer() string { return strings.TrimPrefix(s.Version, "v") }

// Date is the stamped date, RFC 3339.
func (s Stamp) Date() string { return s.Time.Format(time.RFC3339) }

// releaseTag is a tag a release is made from.
var releaseTag = regexp.MustCompile(`^v\d+\.\d+\.\d+$`)

// git runs git in dir and returns its trimmed output.
type gitFunc func(ctx context.Context, args ...string) (string, error)

func gitIn(dir string) gitFunc {
	return func(ctx context.Context, args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		out, err := cmd.Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
				return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(ee.Stderr)))
			}
			return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out)), nil
	}
}

// ReadStamp reads the stamp of the checkout's HEAD. A snapshot needs no
// tag and takes a dirty tree (its commit says "+dirty"); a release needs
// a clean tree whose HEAD is tagged vX.Y.Z.
func ReadStamp(ctx context.Context, git gitFunc, snapshot bool) (Stamp, error) {
	commit, err := git(ctx, "rev-parse", "--short=12", "HEAD")
	if err != nil {
		return Stamp{}, fmt.Errorf("read the commit: %w", err)
	}
	when, err := git(ctx, "show", "-s", "--format=%cI", "HEAD")
	if err != nil {
		return Stamp{}, fmt.Errorf("read the commit time: %w", err)
	}
	t, err := time.Parse(time.RFC3339, when)
	if err != nil {
		return Stamp{}, fmt.Errorf("commit time %q: %w", when, err)
	}
	status, err := git(ctx, "status", "--porcelain")
	if err != nil {
		return Stamp{}, fmt.Errorf("read the tree's status: %w", err)
	}
	s := Stamp{Commit: commit, Time: t.UTC()}
	if status != "" {
		s.Commit += "+dirty"
	}
	if snapshot {
		// One prerelease identifier with a letter in it: npm's semver
		// rejects a purely numeric one with a leading zero, which a
		// commit hash can be.
		s.Version = "v0.0.0-snapshot-" + commit
		return s, nil
	}
	if status != "" {
		return Stamp{}, fmt.Errorf("the tree has uncommitted changes; commit them, or build a snapshot with --snapshot:\n%s", status)
	}
	if s.Version, err = tagOf(ctx, git); err != nil {
		return Stamp{}, err
	}
	return s, nil
}

// tagOf is the vX.Y.Z tag on HEAD, the version of a release.
func tagOf(ctx context.Context, git gitFunc) (string, error) {
	tags, err := git(ctx, "tag", "--points-at", "HEAD")
	if err != nil {
		return "", fmt.Errorf("read the tags: %w", err)
	}
	for _, tag := range strings.Fields(tags) {
		if releaseTag.MatchString(tag) {
			return tag, nil
		}
	}
	return "", fmt.Errorf("HEAD has no release tag (vX.Y.Z); tag it ('git tag v0.1.0'), or build a snapshot with --snapshot")
}
