package guard

// mcpRules are registerMCP's rules, static data: loading the
// batch allocates none of them.
var mcpRules = []*Rule{
	{ID: ruleMcpUnknownWrite, Category: "mcp", Verdict: Ask,
		Reason: "atreides cannot check what this MCP tool changes; ask the user"},
}

// Third-party MCP tools (internal/mcptools reads their arguments): the
// paths and commands a call names are judged as the file and shell tools'
// are; a call that runs commands or writes files it does not name is an
// unknown write, which this rule decides.
func registerMCP() {
	register(mcpRules...)
}

// UnknownWrite judges an MCP tool call whose effects cannot be listed;
// detail says why (mcptools.Calls.Unknown). The verdict is rule
// mcp.unknown-write's under this policy: ask by default; a user may
// change it or turn it off like any other rule.
func (p *Policy) UnknownWrite(detail string) Result {
	r := ruleByID(ruleMcpUnknownWrite)
	v, on := p.verdictFor(r)
	if !on {
		return Result{Verdict: Allow}
	}
	reason := r.Reason
	if detail != "" {
		reason = detail + ": " + reason
	}
	return Result{Verdict: v, Rule: r.ID.name, Category: r.Category, Reason: reason}
}
