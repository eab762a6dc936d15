// Package readfirst is the read-before-write check: an edit or overwrite
// of an existing file the agent has not read in this session gets a note
// (the agent is told to read it and check the result) or, in block mode,
// is refused until the agent has read it. A file also counts as unread
// when it changed on disk since the agent last read or wrote it.
//
// What an agent has in its context is kept per agent ([Reads], its group of the session record):
// a subagent's reads put a file into the subagent's context, not the lead
// agent's. A file is known once the agent read it with the read tool or a
// plain shell reader the guard's shell model sees (cat, head, sed -n ...;
// shell.Effects.Reads), or wrote or edited it with a file tool; a
// compaction forgets the agent's files, since its context no longer holds
// them, and a stopped subagent's files are dropped. Writes by shell
// commands do not count: the agent did not see what a formatter or a
// sed -i made of the file.
//
// Hosts that refuse such an edit themselves (Claude Code's Edit and Write)
// are skipped entirely, so they pay nothing; the event's host facts say
// which (event.HostFacts.ReadsBeforeWrite). Paths are made absolute and have their links resolved
// before the lock is taken (Prepare), so that a file named through a link
// or relative to the working directory is the same file as one read by
// its real name.
package readfirst
