package agenttools

import (
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/store"
)

// TestIntentToolsNameALeaseOfAnotherCheckout: with a store another
// checkout writes too, the intent tools name where the holder of a lease
// is when that is another checkout, and only then.
func TestIntentToolsNameALeaseOfAnotherCheckout(t *testing.T) {
	root := newProject(t)
	a := testEnv(root, map[string]string{"ATREIDES_SESSION_ID": "s-a"})
	b := testEnv(root, map[string]string{"ATREIDES_SESSION_ID": "s-b"})
	a.Store.Origin = store.Origin{Machine: "laptop", Checkout: root}
	b.Store.Origin = store.Origin{Machine: "desktop", Checkout: "/home/bo/repo"}
	if _, err := call(t, a, "select_active_intent", `{"intent_id":"auth"}`); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env        *Env
		tool, args string
		want       string
	}{
		{b, "list_intents", ``, "held by session s-a (from machine laptop) since"},
		{b, "select_active_intent", `{"intent_id":"auth"}`, "held by session s-a (from machine laptop) since"},
		{a, "list_intents", ``, "held by session s-a since"},
	} {
		out, err := call(t, tc.env, tc.tool, tc.args)
		if err != nil {
			out = err.Error()
		}
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s in %s = %q, want %q in it", tc.tool, tc.env.Store.Origin.Machine, out, tc.want)
		}
	}
}
