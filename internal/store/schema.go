package store

import (
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The store's own bucket and its keys. Values are plain text so that a
// human with the bbolt CLI can read them.
const (
	metaBucket       = "meta"
	keySchemaVersion = "schema_version"
	keyCreatedBy     = "created_by"
	keyCreatedAt     = "created_at"
)

// SchemaVersion is the layout of the state file this code reads and writes.
// Bump it together with a migration registered in currentSchema whenever
// stored data changes shape in a way older code would misread.
const SchemaVersion = 3

// A Migration rewrites the data of schema version N into version N+1. It
// runs inside the same read-write transaction as the Update that found the
// old file, so a failing migration leaves the file exactly as it was.
type Migration func(tx *Tx) error

type schema struct {
	version uint64
	// migrations[n] turns schema n into n+1 (nil: no path from n). Version
	// 0 is a file without a meta bucket but with data in it: written
	// before versioning existed. A slice, not a map: a composite literal
	// of functions is static data, a map is built by the package's init.
	migrations []Migration
}

// currentSchema is the schema of this build. Schema 2 allows package
// state's binary records: nothing is rewritten (package state migrates each
// record when it reads it), but an atreides of schema 1 would take them for
// damage and replace them with empty ones, so it must refuse the file
// instead (a [*SchemaError], the file left untouched).
//
// Schema 3 adds record files beside the database (package state keeps
// sessions there and moves each one out of its bucket when it next saves
// it): an atreides of schema 2 would not see them, start every session
// afresh in the bucket, and leave behind copies a later one would ignore.
var currentSchema = schema{version: SchemaVersion, migrations: []Migration{
	1: func(*Tx) error { return nil },
	2: func(*Tx) error { return nil },
}}

// SchemaError reports a state file whose schema this code cannot use as is:
// a newer one (written by a newer atreides; never touched), or an older one
// without a registered migration path.
type SchemaError struct {
	Path   string // the state file; of a PostgreSQL store, the database
	Found  uint64 // schema version in the file
	Known  uint64 // newest schema version this code understands
	Remote bool   // a PostgreSQL database, which only 'atreides store migrate' changes
}

func (e *SchemaError) Error() string {
	if e.Remote {
		switch {
		case e.Found > e.Known:
			return fmt.Sprintf("state database %s has schema %d, this atreides understands up to %d; upgrade atreides", e.Path, e.Found, e.Known)
		case e.Found == 0:
			return fmt.Sprintf("state database %s has no atreides tables yet; run 'atreides store migrate'", e.Path)
		}
		return fmt.Sprintf("state database %s has schema %d, this atreides needs %d; run 'atreides store migrate'", e.Path, e.Found, e.Known)
	}
	if e.Found > e.Known {
		return fmt.Sprintf("state file %s has schema %d, this atreides understands up to %d; upgrade atreides or move the file aside",
			e.Path, e.Found, e.Known)
	}
	return fmt.Sprintf("state file %s has schema %d and this atreides (schema %d) has no migration from it; move the file aside",
		e.Path, e.Found, e.Known)
}

func (e *SchemaError) older() bool { return e.Found < e.Known }

// fileVersion reads the schema version of the open file. fresh is true for a
// file without any bucket, which is simply new.
func fileVersion(btx *bolt.Tx) (v uint64, fresh bool, err error) {
	meta := btx.Bucket([]byte(metaBucket))
	if meta == nil {
		if k, _ := btx.Cursor().First(); k == nil {
			return 0, true, nil
		}
		return 0, false, nil
	}
	raw := meta.Get([]byte(keySchemaVersion))
	v, err = strconv.ParseUint(string(raw), 10, 64)
	if err != nil {
		// Our own bookkeeping is unreadable: the file is not one we can
		// trust, treat it like any other damage.
		return 0, false, &corruption{cause: fmt.Errorf("meta %s is %q", keySchemaVersion, raw)}
	}
	return v, false, nil
}

// check is the read-only side: it fails with a *SchemaError for any file
// that is not at this schema (callers migrate older ones through Update).
func (sc *schema) check(btx *bolt.Tx, path string) (fresh bool, err error) {
	v, fresh, err := fileVersion(btx)
	if err != nil || fresh {
		return fresh, err
	}
	if v != sc.version {
		return false, &SchemaError{Path: path, Found: v, Known: sc.version}
	}
	return false, nil
}

// prepare is the read-write side: it stamps a new file, migrates an older
// one step by step, and refuses a newer one without writing anything.
// migrated says that it migrated the file: that must be committed too.
func (sc *schema) prepare(btx *bolt.Tx, path, creator string) (created, migrated bool, err error) {
	v, fresh, err := fileVersion(btx)
	if err != nil {
		return false, false, err
	}
	if fresh {
		meta, err := btx.CreateBucket([]byte(metaBucket))
		if err != nil {
			return false, false, fmt.Errorf("init state %s: %w", path, err)
		}
		for _, kv := range [][2]string{
			{keySchemaVersion, strconv.FormatUint(sc.version, 10)},
			{keyCreatedBy, creator},
			{keyCreatedAt, time.Now().UTC().Format(time.RFC3339)},
		} {
			if err := meta.Put([]byte(kv[0]), []byte(kv[1])); err != nil {
				return false, false, fmt.Errorf("init state %s: %w", path, err)
			}
		}
		return true, false, nil
	}
	if v > sc.version {
		return false, false, &SchemaError{Path: path, Found: v, Known: sc.version}
	}
	for ; v < sc.version; v++ {
		var m Migration
		if v < uint64(len(sc.migrations)) {
			m = sc.migrations[v]
		}
		if m == nil {
			return false, false, &SchemaError{Path: path, Found: v, Known: sc.version}
		}
		if err := runFn(&Tx{btx: btx, writable: true}, func(tx *Tx) error { return m(tx) }); err != nil {
			return false, false, fmt.Errorf("migrate state %s from schema %d to %d: %w", path, v, v+1, err)
		}
		meta, err := btx.CreateBucketIfNotExists([]byte(metaBucket))
		if err == nil {
			err = meta.Put([]byte(keySchemaVersion), []byte(strconv.FormatUint(v+1, 10)))
		}
		if err != nil {
			return false, false, fmt.Errorf("migrate state %s to schema %d: %w", path, v+1, err)
		}
		migrated = true
	}
	return false, migrated, nil
}
