// Package sanitize makes untrusted text safe to write to logs and traces:
// commands, paths and tool output that an agent produced.
//
// Three things can go wrong when such text is logged verbatim, and String
// handles each:
//
//   - it leaks secrets (tokens, passwords, private keys) into files that are
//     kept, shared and uploaded with bug reports: recognisable secrets are
//     masked, keeping what says what they were (`ghp_****`, `-u bob:****`,
//     `PGPASSWORD=****`, `https://hooks.slack.com/services/****`). Three
//     kinds are recognised: values after secret-bearing keys and options
//     (mask.go; options such as -p only for the programs where they take a
//     password, since -p is a port or -print elsewhere), vendor token
//     formats, and long random-looking hex and base64 words (tokens.go,
//     which says why git object ids and content hashes stay readable);
//   - it forges or garbles log lines (newlines, ANSI escapes, bidi
//     overrides): control and format characters are escaped, so one field
//     stays on one line (`\n`, `\x1b`, `\u202e`);
//   - it bloats the log: output is capped with a visible `…(+N bytes)` marker.
//
// Output is always valid UTF-8. Each regular expression is compiled the
// first time its trigger appears in a text (a sync.Once per rule), not
// in init: every hook process starts this package, and a hook that logs
// nothing secret-looking must not pay for compiling them. Text without
// any trigger costs two passes (bigrams.go, tokens.go) and no allocation.
package sanitize
