package state

// For the golden test, which links in the features that own groups and
// so lives outside the package.
var (
	DecodeTasks = decodeTasks
	EncodeTasks = encodeTasks
)
