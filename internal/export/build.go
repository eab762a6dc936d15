package export

import (
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/view"
)

// Build is the document of session ([view.Export]) with its validation.
func Build(s *view.Snapshot, trail audit.Reader, session string, now time.Time) (*view.Document, error) {
	doc, err := view.Export(s, trail, session, now)
	if err != nil {
		return nil, err
	}
	doc.Validation = Validate(doc, s, now)
	return doc, nil
}
