package state

// For the golden test, which links in the features that own groups and
// so lives outside the package.
var (
	DecodeTasks = decodeTasks
	EncodeTasks = encodeTasks
	IsBinary    = isBinary
	// For the benchmarks, which use the history group.
	BusySession = busySession
	BusyProject = busyProject
)

// SessionV1Record is for the version 1 test, which needs the groups of
// features.
const SessionV1Record = sessionV1Record
