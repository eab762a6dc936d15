package command

import (
	"fmt"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Did-you-mean for flags: cobra suggests command names, not flags, and a
// mistyped flag is the commoner slip (--sesion, --verdcit).

// maxTypo is the largest edit distance at which a name is suggested.
const maxTypo = 2

// Closest are the candidates within maxTypo edits of name, nearest
// first, or that start with it (an abbreviation); none when name is
// too short for a guess to mean anything.
func Closest(name string, candidates []string) []string {
	if len(name) < 2 {
		return nil
	}
	type scored struct {
		s string
		d int
	}
	var found []scored
	for _, c := range candidates {
		d := config.Distance(strings.ToLower(name), strings.ToLower(c))
		if d <= maxTypo || (len(name) >= 3 && strings.HasPrefix(c, name)) {
			found = append(found, scored{c, d})
		}
	}
	slices.SortStableFunc(found, func(a, b scored) int { return a.d - b.d })
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.s
	}
	return out
}

// FlagError is the usage error for a flag cmd could not parse, with the
// flags of cmd the unknown one is closest to.
func FlagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return &UsageError{Msg: msg}
	}
	var names []string
	visit := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	cmd.NonInheritedFlags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	if s := Closest(name, names); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean --%s?", strings.Join(s[:min(len(s), 3)], " or --"))
	}
	return &UsageError{Msg: msg}
}
