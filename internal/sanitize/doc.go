// Package sanitize makes untrusted text safe to write to logs and traces:
// commands, paths and tool output that an agent produced.
//
// Three things can go wrong when such text is logged verbatim, and String
// handles each:
//
//   - it leaks secrets (tokens, passwords, private keys) into files that are
//     kept, shared and uploaded with bug reports: recognisable secrets are
//     masked, keeping a short prefix so the kind stays visible (`ghp_****`);
//   - it forges or garbles log lines (newlines, ANSI escapes, bidi
//     overrides): control and format characters are escaped, so one field
//     stays on one line (`\n`, `\x1b`, `\u202e`);
//   - it bloats the log: output is capped with a visible `…(+N bytes)` marker.
//
// Output is always valid UTF-8. The regular expressions are compiled on
// first use (sync.OnceValue), not in init: every hook process starts this
// package, and a hook that never logs must not pay for compiling them.
package sanitize
