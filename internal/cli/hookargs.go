package cli

import (
	"strconv"
	"strings"
)

// hookArgs reads the command line hosts run on every event, 'hook HOST
// [--event NAME] [--timeout SECONDS]' (flags in either spelling, before or
// after the host), without building the command tree: cobra's tree of
// every command costs each hook process about as much as deciding a
// simple event. Anything else (help, an unknown flag, a value that does
// not parse, a missing host) returns false, and the full parser answers
// it with its usual messages.
func hookArgs(args []string) (*hookOptions, bool) {
	if len(args) < 2 || args[0] != "hook" {
		return nil, false
	}
	o := &hookOptions{}
	hosts := 0
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			o.host = a
			hosts++
			continue
		}
		name, val, inline := strings.Cut(a, "=")
		if !inline {
			if i+1 >= len(args) {
				return nil, false
			}
			i++
			val = args[i]
		}
		if !o.set(name, val) {
			return nil, false
		}
	}
	return o, hosts == 1
}

// set sets the flag name (with its dashes) to val, reporting whether it is
// one of the hook's flags and val parses.
func (o *hookOptions) set(name, val string) bool {
	switch name {
	case "--event":
		o.event = val
		return true
	case "--timeout":
		t, err := strconv.ParseFloat(val, 64)
		o.timeout = t
		return err == nil
	}
	return false
}
