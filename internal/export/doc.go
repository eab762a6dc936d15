// Package export turns one session of a project into a document a person
// or a program can keep: `atreides export` and the optional export at
// SessionEnd. [Build] assembles it ([view.Export]) from a [view.Snapshot]
// and the audit trail, without I/O of its own beyond what package view
// reads; [JSON] and [Markdown] render it. [Session] reads the project
// and builds the document; [Write] keeps it in export.dir at a session's
// end, pruning the oldest.
//
// The JSON shape is a contract, described by docs/export.schema.json and
// docs/export.md; its types are the read model's ([view.Document]), and
// the schema is generated from them. A test validates the goldens against
// that schema. The document also judges the session: its validation
// section says whether the session is complete and, when it is not, why
// (see [Validate]).
package export
