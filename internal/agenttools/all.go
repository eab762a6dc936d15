package agenttools

import "slices"

// All is every tool atreides gives the agent, in the order hosts list
// them: one list per area, concatenated. The lists are built per call, not
// held in package variables, so that linking this package into the hook
// binary costs no init work.
func All() []Tool {
	return slices.Concat(
		intentTools(),
		todoTools(),
		statusTools(),
		taskTools(),
		Background(),
	)
}
