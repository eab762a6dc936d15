package agents

import "testing"

// TestHostName: every id gets the prefix once; IDOf undoes it (and the
// plugin's namespace Claude Code puts before it) and leaves
// a bare name (an install from before the prefix) as it is.
func TestHostName(t *testing.T) {
	for _, c := range []struct{ id, host string }{
		{"explore", "atreides-explore"},
		{"atreides-scout", "atreides-scout"},
	} {
		if got := HostName(c.id); got != c.host {
			t.Errorf("HostName(%q) = %q, want %q", c.id, got, c.host)
		}
	}
	for name, id := range map[string]string{"atreides-explore": "explore", "explore": "explore", "atreides-": "atreides-", "atreides:atreides-stilgar": "stilgar"} {
		if got := IDOf(name); got != id {
			t.Errorf("IDOf(%q) = %q, want %q", name, got, id)
		}
	}
}

// TestGetByHostName: the roster finds an agent by its id, by the name the
// host knows it by and, for a project agent whose id carries the prefix,
// by that id; an unknown name is not found.
func TestGetByHostName(t *testing.T) {
	r := Roster{{ID: "explore"}, {ID: "atreides-scout"}, {ID: "scout"}}
	for name, want := range map[string]string{
		"explore": "explore", "atreides-explore": "explore",
		"atreides-scout": "atreides-scout", "scout": "scout",
	} {
		if a, ok := r.Get(name); !ok || a.ID != want {
			t.Errorf("Get(%q) = %q, %v; want %q", name, a.ID, ok, want)
		}
	}
	if a, ok := r.Get("atreides-plan"); ok {
		t.Errorf("Get(atreides-plan) found %q in a roster without plan", a.ID)
	}
}
