// Package subagents holds the delegation registry's group of the session
// record: the delegations allowed and not yet started, and the subagents
// started, live or finished; and, in the project record, the links of the
// child sessions of hosts that run a subagent as a session of its own
// (links.go), which place it under the root session whose record keeps
// that registry. The delegation handlers (package delegation)
// keep it; the engine's marks and the read model read it. It imports only
// the record machinery (state, binrec), so that the engine, which the
// handlers import, can read it too.
package subagents
