// Package shellcall gives an event's shell command its effects
// (shell.Effects: the files it writes and reads, whether it verifies, the
// programs it runs), walked once per engine call and kept in the call's
// memo. Governance's scope gate and ledger, the task gate, the session's
// phase and verification, and read-first call Effects; the guard's
// handler (package policy) hands over the effects of its judging walk
// with Remember, so a command the guard judged is not walked again.
//
// It also holds the facts of the machine a walk reads (the home and
// temporary directories, a symlink resolver), so that learning what a
// command does needs neither the policy nor its configuration.
package shellcall
