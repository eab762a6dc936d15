// Package secrets is the one place that decides whether a path names a
// secret: credentials, private keys, dotenv files, cloud and package-registry
// tokens and (opt-in) the config and auth files of coding CLIs.
//
// Both the shell guard (for every path-like word of a command) and the file
// tools (Read/Edit/Write/Grep/Glob inputs) call into this package so that the
// two can never disagree about what a secret is.
//
// The work is split in two steps:
//
//   - Canonical turns whatever the agent wrote (`~/.ssh/../.aws/credentials`,
//     `${HOME}/.npmrc`, `C:\Users\me\.netrc`, `file:///app/.env`) into one
//     cleaned absolute path. It is pure string work; the only I/O is the
//     optional Env.Resolve callback the caller passes (filepath.EvalSymlinks in
//     production), so tests and fuzzing need no file system.
//   - Check matches the canonical path (and, when Resolve followed a symlink,
//     the link target too) against the rule table. Rules are grouped by
//     anchor (the home directory or a directory named by an environment
//     variable such as CODEX_HOME or XDG_CONFIG_HOME), by exact basename, by
//     basename shape (`.env.*`, `id_rsa-old`, `deploy_key_rsa`) and by
//     extension (`*.pem`, `*.p12`, `*.kdbx` ...).
//
// Policy decisions, mostly taken from the cc-safety-net path corpus
// (shared/corpora/cc-safety-net-paths.tsv), are documented next to the rule
// tables in rules.go. Rule ids use cc-safety-net's vocabulary
// (`secret.basename.env`, `secret.home.ssh`, `secret.cli.codex`, ...) so that
// corpus rows and our verdicts can be compared by id.
//
// The coding-CLI rules (`secret.cli.*`) are off by default: agents
// legitimately read their own host's settings, and a user who wants them
// protected turns them on with Options.CLIConfigs.
package secrets
