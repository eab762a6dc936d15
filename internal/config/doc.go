// Package config loads atreides' layered YAML configuration: the built-in
// defaults ([DefaultYAML]), then the user file, then the project file, each
// layer overriding the one before it key by key. Every resolved value keeps
// the file and line it came from ([Config.Pos]), so errors raised later by
// other packages and `atreides config show` can point at the exact line.
//
// Merging rules: mappings merge key by key at any depth; lists replace the
// lower layer's list as a whole (so a project can narrow a user's list
// without a removal syntax); a null value (`key:` or `key: ~`) resets a
// setting to its built-in default and removes an entry from a free-form map
// (guard.verdicts, guard.switches), while a section left empty (`guard:`)
// changes nothing, so commenting out every line of a section is harmless.
//
// Loading is all-or-nothing: a file with any unknown key, wrong type or bad
// value yields a [*ValidationError] listing every problem in that file with
// file, line and column. What to go on with then is [Fallback]: the
// defaults tightened by the readable part of each file, never weaker than
// the defaults (fallback.go). Use [Lazy] in hook handlers so that events
// which need no configuration never read or parse YAML.
//
// [Schema] is the JSON Schema of a config file, generated from the same
// types (docs/config.schema.json).
//
// A config file must be a regular file of at most 1 MiB; a FIFO or device
// in its place is refused at once instead of hanging the hook. The project
// file, which comes from the repository, is never read through a link
// (package confined); the user's own file may be one. A refused file is an
// error like an invalid one, so the guard fails closed on it.
package config
