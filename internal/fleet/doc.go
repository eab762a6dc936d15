// Package fleet opens a project's store as its configuration says: the
// embedded bbolt file of this machine (the default), or the PostgreSQL
// database a team shares (store.backend: postgres). It owns what makes a
// project the same project on every machine: its id, project.id in the
// committed configuration or else the hash of the repository's first
// commit, which every full clone has.
//
// Every command and the hook open the store through [Open] (or [OpenWith]
// when the configuration is loaded already), so the choice is made in one
// place. A store that cannot be opened as configured (postgres without a
// DSN, a project without an id) is returned as a store whose every call
// fails with the reason: callers already handle a store that fails, and
// none of them falls back silently to a store of this machine, which
// would split a team's state.
package fleet
