package agenttools

import "slices"

// ServedOnOpenCode is what the OpenCode plugin registers. TEMPORARY: All
// does not list the background tools yet; once it does, serve uses All
// and this file goes.
func ServedOnOpenCode() []Tool { return slices.Concat(All(), backgroundTools()) }
