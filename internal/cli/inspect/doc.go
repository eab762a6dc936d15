// Package inspect holds the commands that read what happened: log (the
// audit trail), export (one session as a document) and trace (the
// ledger of who wrote which lines).
package inspect
