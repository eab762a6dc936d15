package state

// For the golden test, which links in the features that own groups and
// so lives outside the package.
var (
	DecodeTasks = decodeTasks
	EncodeTasks = encodeTasks
	IsBinary    = isBinary
)

// SessionV1Record is for the version 1 test, which needs the groups of
// features.
const SessionV1Record = sessionV1Record
