package install_test

import (
	"regexp"
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/agenttools"
	"github.com/atreides-dev/atreides/internal/install"
)

// The section names exactly the agent's tools (an external test package:
// agenttools links install through governance).
func TestSectionNamesTheMCPTools(t *testing.T) {
	var tools []string
	for _, tl := range agenttools.All() {
		tools = append(tools, tl.Name)
	}
	var named []string
	for _, m := range regexp.MustCompile("`([a-z]+_[a-z_]+)`").FindAllStringSubmatch(install.SectionText, -1) {
		named = append(named, m[1])
	}
	slices.Sort(tools)
	slices.Sort(named)
	if len(tools) == 0 || !slices.Equal(tools, named) {
		t.Errorf("agent tools %v, section names %v", tools, named)
	}
}
