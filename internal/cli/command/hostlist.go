package command

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/host"
)

// HelpWidth is the last column help text is written to.
const HelpWidth = 79

// HostDisplays are the display names of hosts (all.All, all.Via), in
// their order: the help texts that list the hosts list them from the
// registry.
func HostDisplays(hosts []*host.Host) []string {
	out := make([]string, len(hosts))
	for i, h := range hosts {
		out[i] = h.Display
	}
	return out
}

// AppendList appends items to text as a list ("a, b and c"), breaking
// the line before an item that would pass the help width (a separator
// stays at the end of its line).
func AppendList(text string, items []string) string {
	var b strings.Builder
	b.WriteString(text)
	col := len(text) - strings.LastIndexByte(text, '\n') - 1
	for i, it := range items {
		if i > 0 {
			sep := ", "
			if i == len(items)-1 {
				sep = " and "
			}
			b.WriteString(strings.TrimSuffix(sep, " "))
			col += len(sep) - 1
			if col+1+len(it) > HelpWidth {
				b.WriteByte('\n')
				col = 0
			} else {
				b.WriteByte(' ')
				col++
			}
		}
		b.WriteString(it)
		col += len(it)
	}
	return b.String()
}
