package agenttools

import "slices"

// All is every tool atreides gives the agent, in the order hosts list
// them: one list per area, concatenated. The lists are built per call, not
// held in package variables, so that linking this package into the hook
// binary costs no init work. Every tool checks the size caps its schema
// declares before it runs (see capped).
func All() []Tool {
	tools := slices.Concat(
		intentTools(),
		todoTools(),
		statusTools(),
		taskTools(),
		Background(),
		Review(),
	)
	for i := range tools {
		tools[i] = capped(tools[i])
	}
	return tools
}
