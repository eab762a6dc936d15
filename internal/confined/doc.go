// Package confined opens the files atreides keeps below a directory it
// trusts (a project's root, the user's configuration directory) without
// following a symbolic link anywhere below that directory, and only when
// they are what they claim to be: regular files, in real directories.
//
// Why: the .atreides directory and everything in it come from the
// repository, which is input an attacker may write. A repository that
// commits .atreides/log as a link to ~/.bashrc would otherwise have atreides
// append text it chose (the log quotes commands) to the user's shell start-up
// file; the same trick aims the state file, the ledger or the intents at any
// file the user can write, and a link on .atreides itself redirects them all.
// A named pipe or a device in place of a file is the other lie: opening a
// FIFO for reading blocks until a writer appears, so a FIFO committed as
// .atreides/config.yaml would hang every hook, under the state lock.
//
// So every name below the base is opened with O_NOFOLLOW, directories with
// O_DIRECTORY, one component at a time from the directory descriptor of the
// one before (openat), and a file with O_NONBLOCK so a FIFO or device returns
// at once; then fstat must say "regular file" or the descriptor is closed
// and a [*RefusedError] names the path and what it really is. The base
// itself is opened normally: the user chose it, links and all. On systems
// without openat (Windows) each component is checked with Lstat and the
// opened file compared with what Lstat saw ([os.SameFile]), which keeps out
// a committed link but not a local process racing the check.
//
// A refusal is not this package's to handle: callers that decide security
// (the guard's policy) fail closed on it, the rest log it and carry on
// without writing through the link.
package confined
