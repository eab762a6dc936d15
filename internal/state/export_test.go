package state

import "github.com/atreides-dev/atreides/internal/store"

// For the golden test, which links in the features that own groups and
// so lives outside the package.
var (
	IsBinary = isBinary
	// For the benchmarks, which use the history group.
	BusySession = busySession
	BusyProject = busyProject
)

// SessionV1Record is for the version 1 test, which needs the groups of
// features.
const SessionV1Record = sessionV1Record

// ProjectAt is an empty project record read and written from here, as
// one loaded through a store of that origin is.
func ProjectAt(here store.Origin) *Project { return &Project{here: here} }

// Reloaded is p as loaded again from here.
func Reloaded(p *Project, here store.Origin) *Project {
	p.here = here
	return p
}

// OlderBuild is what an older build, which knows the project's first
// sections only (those with a tag below sections), writes back after it
// read the record b and made change.
func OlderBuild(b []byte, sections int, change func(*Project)) ([]byte, error) {
	rec, err := splitRecord(b, kindProject, ProjectVersion)
	if err != nil {
		return nil, err
	}
	older := projectSections[:sections]
	var p Project
	if err := decodeSections(older, &rec, AllGroups, &p); err != nil {
		return nil, err
	}
	change(&p)
	return encodeRecord(kindProject, ProjectVersion, older, &p, AllGroups, &rec, nil)
}

// EncodeAsOlder is p as an older build, which knows the project's first
// sections only, encodes it.
func EncodeAsOlder(p *Project, sections int) []byte {
	b, _ := encodeRecord(kindProject, ProjectVersion, projectSections[:sections], p, AllGroups, &raw{}, nil)
	return b
}

// DecodeRecord is the decoder of the record of its own named name.
func DecodeRecord(name string, b []byte) (any, error) { return ownRecordNamed(name).decode(b) }

// EncodeRecord is the encoder of the record of its own named name.
func EncodeRecord(name string, v any) []byte { return ownRecordNamed(name).encode(v, 0) }

func ownRecordNamed(name string) *ownRecord {
	ready()
	for _, r := range ownRecords {
		if r != nil && r.name == name {
			return r
		}
	}
	panic("no record " + name + " registered")
}
