// Package buildinfo says which atreides this is: the version, commit and
// commit date stamped in by the release build (-ldflags -X), or, for a
// 'go install module@version' or a build from a checkout, what the Go
// toolchain recorded in the binary (runtime/debug.ReadBuildInfo). It does
// no work at package init, so the hook binary pays nothing for it until a
// command asks.
package buildinfo

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Set by the release build:
//
//	-ldflags "-X github.com/atreides-dev/atreides/internal/buildinfo.version=v0.3.0
//	          -X ….commit=abc1234def56 -X ….date=2026-11-29T10:00:00Z"
var version, commit, date string

// Info is what one binary knows about its build.
type Info struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Date    string `json:"date"`
}

// devel is the version of a build that carries none.
const devel = "devel"

// shortCommit is how many hex digits of a commit are shown.
const shortCommit = 12

// Read returns the stamped values, each missing one filled from the Go
// toolchain's build info.
func Read() Info {
	return resolve(Info{version, commit, date}, debug.ReadBuildInfo)
}

// Version is "v0.3.0", a module pseudo-version, or "devel". A stamped
// version is returned as it is: the hook asks for it on events (the
// ledger's records), and the build information is parsed only when
// there is no stamp.
func Version() string {
	if version != "" {
		return version
	}
	return Read().Version
}

// Commit is the short commit hash, with "+dirty" when the tree had
// changes, or "" when unknown.
func Commit() string { return Read().Commit }

// Date is the commit's time (RFC 3339), or "" when unknown.
func Date() string { return Read().Date }

// Summary is the one line that 'atreides version' prints:
// "atreides v0.3.0 (abc1234def56, 2026-11-29)".
func Summary() string { return SummaryOf("atreides") }

// SummaryOf is Summary for the program called name (a companion says its
// own name).
func SummaryOf(name string) string { return Read().summary(name) }

func (i Info) summary(name string) string {
	var extra []string
	if i.Commit != "" {
		extra = append(extra, i.Commit)
	}
	if i.Date != "" {
		day, _, _ := strings.Cut(i.Date, "T")
		extra = append(extra, day)
	}
	if len(extra) == 0 {
		return fmt.Sprintf("%s %s", name, i.Version)
	}
	return fmt.Sprintf("%s %s (%s)", name, i.Version, strings.Join(extra, ", "))
}

// resolve fills what stamped lacks from read's build info; a value given
// at link time always wins.
func resolve(stamped Info, read func() (*debug.BuildInfo, bool)) Info {
	out := stamped
	bi, ok := read()
	if !ok || bi == nil {
		bi = &debug.BuildInfo{}
	}
	if out.Version == "" {
		out.Version = moduleVersion(bi)
	}
	rev, when, dirty := vcs(bi)
	if out.Commit == "" && rev != "" {
		out.Commit = rev
		if dirty {
			out.Commit += "+dirty"
		}
	}
	if out.Date == "" {
		out.Date = when
	}
	return out
}

// moduleVersion is the main module's version, which 'go install m@v'
// records; a build inside a checkout records "(devel)" or nothing.
func moduleVersion(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	return devel
}

// vcs reads the version-control settings 'go build' records in a
// checkout: the revision (shortened), its time, and whether the tree was
// modified.
func vcs(bi *debug.BuildInfo) (rev, when string, dirty bool) {
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
			if len(rev) > shortCommit {
				rev = rev[:shortCommit]
			}
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	return rev, when, dirty
}
