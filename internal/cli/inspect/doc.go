// Package inspect holds the commands that read what happened or would
// happen: log (the audit trail), export (one session as a document),
// trace (the ledger of who wrote which lines) and check (the guard's
// verdict on a command).
package inspect
