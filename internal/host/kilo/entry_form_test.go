package kilo

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/host/opencode"
)

// TestCommandFormIsOpenCodes: Kilo's command form, spelled out as static
// data, is OpenCode's under Kilo's name.
func TestCommandFormIsOpenCodes(t *testing.T) {
	want := opencode.CommandForm
	if commandForm.Host != Host || commandForm.Ext != want.Ext || commandForm.Args != want.Args {
		t.Errorf("kilo's form %+v, OpenCode's %+v", commandForm, want)
	}
}

// TestAdapterFlavor: the entry's adapter, spelled out as static data, has
// Kilo's flavor.
func TestAdapterFlavor(t *testing.T) {
	if a, ok := Entry.Adapter.(opencode.Adapter); !ok || a.Flavor != flavor {
		t.Errorf("adapter %#v, want the flavor %+v", Entry.Adapter, flavor)
	}
}
