// Package govstate holds the governance group of the project record: the
// intent leases sessions hold, the scope requests agents made, the head
// of the trace ledger, and the sessions seen most recently (whom a tool
// call without a session acts for). Package governance owns the rules
// (who may take a lease, what a request needs) and changes them; the
// session context, the trace ledger, the tasks' caller, the agent tools,
// the commands and the read model read them, and [state.Prune] releases
// the leases of the sessions it removes ([Governance.ForgetSession]). It
// imports only the record machinery (state, binrec, store), so that any of
// them can.
package govstate
