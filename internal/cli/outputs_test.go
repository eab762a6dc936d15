package cli

import (
	"reflect"
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/outputs"
)

// The no-file path uses outputs.DefaultOptions without parsing YAML: they
// must be the documented defaults.
func TestOutputsDefaults(t *testing.T) {
	cfg, err := config.Load(config.Paths{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outputsOptions(&cfg.Context.Output), outputs.DefaultOptions(); !reflect.DeepEqual(got, want) {
		t.Errorf("outputs defaults differ:\nconfig: %+v\nGo:     %+v", got, want)
	}
}
