package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/atreides-dev/atreides/internal/view/viewtest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// now is the export's clock: an hour after the fixture's last event.
var now = viewtest.At(150)

var opts = view.Options{StaleAfter: 48 * time.Hour, Lease: 30 * time.Minute}

// export builds the document of session in the project at root, with the
// clock and the root fixed so that goldens are stable.
func export(t testing.TB, root, session string) *view.Document {
	t.Helper()
	s, err := view.Take(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	s.Taken = now
	doc, err := Build(s, audit.New(project.StateDir(root), nil), session, now)
	if err != nil {
		t.Fatal(err)
	}
	doc.Project, doc.Atreides = "/project", "test"
	// A ledger record's hash covers its random id: the golden keeps the
	// chain's shape, each record naming the one before.
	recs := doc.Ledger.Records
	for i, r := range recs {
		if !strings.HasPrefix(r.Hash, "sha256:") || i > 0 && r.Prev != recs[i-1].Hash {
			t.Fatalf("record %d: hash %q prev %q", r.Seq, r.Hash, r.Prev)
		}
	}
	for i := range recs {
		r := &recs[i]
		r.Hash = fmt.Sprintf("hash-%d", r.Seq)
		if r.Seq > 1 {
			r.Prev = fmt.Sprintf("hash-%d", r.Seq-1)
		}
	}
	return doc
}

// minimal is a project with one session and nothing else: no trail, no
// ledger, no intents.
func minimal(t testing.TB) string {
	root := t.TempDir()
	if err := os.MkdirAll(project.StateDir(root), 0o755); err != nil {
		t.Fatal(err)
	}
	viewtest.Update(t, root, func(tx *store.Tx) error {
		s := state.NewSession("sess-min", "codex", viewtest.At(0))
		s.Updated, s.Ended = viewtest.At(5), "exit"
		return state.SaveSession(tx, s)
	})
	return root
}

// quarantined is the fixture after the active session's record was
// quarantined and the session went on afresh, as its next event does.
func quarantined(t testing.TB) string {
	root := viewtest.Project(t)
	viewtest.Quarantine(t, root, viewtest.Active)
	viewtest.Update(t, root, func(tx *store.Tx) error {
		s := state.NewSession(viewtest.Active, "claude", viewtest.At(90))
		s.Updated, s.Ended = viewtest.At(95), "exit"
		return state.SaveSession(tx, s)
	})
	return root
}

func TestGoldens(t *testing.T) {
	schema := compileSchema(t)
	for _, c := range []struct {
		name, session string
		root          func(testing.TB) string
		codes         []string
		complete      bool
	}{
		{"active", viewtest.Active, viewtest.Project, []string{
			CodeNotEnded, CodeOpenTodos, CodeSubagents, CodeStrikes, CodeStaleAnchor, CodeExpiredLease,
		}, false},
		{"ended", viewtest.Ended, viewtest.Project, []string{}, true},
		{"minimal", "sess-min", minimal, []string{CodeNoTrail}, false},
		{"quarantined", viewtest.Active, quarantined, []string{
			CodeQuarantined, CodeOpenTodos, CodeStaleAnchor, CodeExpiredLease,
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := export(t, c.root(t), c.session)
			if got := codes(doc); !slices.Equal(got, c.codes) {
				t.Errorf("issue codes = %v, want %v\n%+v", got, c.codes, doc.Validation.Issues)
			}
			if doc.Validation.Complete != c.complete {
				t.Errorf("complete = %v, want %v", doc.Validation.Complete, c.complete)
			}
			var js, md bytes.Buffer
			if err := JSON(&js, doc); err != nil {
				t.Fatal(err)
			}
			if err := Markdown(&md, doc); err != nil {
				t.Fatal(err)
			}
			validate(t, schema, js.Bytes())
			golden(t, c.name+".json", js.Bytes())
			golden(t, c.name+".md", md.Bytes())
		})
	}
}

func codes(d *view.Document) []string {
	out := []string{}
	for _, is := range d.Validation.Issues {
		if !slices.Contains(out, is.Code) {
			out = append(out, is.Code)
		}
	}
	return out
}

// The quarantine says the history before it is lost; the stale anchor
// is the one the session made ten days ago.
func TestQuarantinedSays(t *testing.T) {
	doc := export(t, quarantined(t), viewtest.Active)
	q := issue(doc, CodeQuarantined)
	if q == nil || q.Severity != Error || !strings.Contains(q.Message, "history before then is lost") {
		t.Errorf("quarantine issue = %+v", q)
	}
	a := issue(doc, CodeStaleAnchor)
	if a == nil || !strings.Contains(a.Message, "anchor 2") {
		t.Errorf("stale anchor issue = %+v", a)
	}
	if doc.Validation.Complete {
		t.Error("a session with a quarantined record is complete")
	}
}

func issue(d *view.Document, code string) *view.Issue {
	for i := range d.Validation.Issues {
		if d.Validation.Issues[i].Code == code {
			return &d.Validation.Issues[i]
		}
	}
	return nil
}

// A session whose record is unreadable is still exported, from the trail
// and the project's records, and says what is missing; an export of
// another session says the damaged record is not its own.
func TestDamaged(t *testing.T) {
	root := viewtest.Project(t)
	viewtest.Update(t, root, func(tx *store.Tx) error {
		return tx.PutRecord("sessions", viewtest.Ended, []byte("not a record"))
	})
	doc := export(t, root, viewtest.Ended)
	if got, want := codes(doc), []string{CodeNotRecorded, CodeDamaged}; !slices.Equal(got, want) {
		t.Errorf("codes = %v, want %v", got, want)
	}
	if doc.Session.Host != "gemini" || len(doc.Decisions) != 1 {
		t.Errorf("the trail's record is not used: host %q, %d decisions", doc.Session.Host, len(doc.Decisions))
	}
	other := export(t, root, viewtest.Active)
	if is := issue(other, CodeOtherDamaged); is == nil || is.Severity != Info {
		t.Errorf("other session's export: %+v", other.Validation.Issues)
	}
	validateDoc(t, compileSchema(t), doc)
}

func TestHierarchy(t *testing.T) {
	doc := export(t, viewtest.Project(t), viewtest.Active)
	at := doc.Todos.Atreides
	if len(at) != 1 || at[0].ID != 1 || len(at[0].Children) != 1 || at[0].Children[0].ID != 2 {
		t.Fatalf("atreides todos not nested: %+v", at)
	}
	if len(doc.Todos.Agent) != 2 {
		t.Errorf("agent todos = %+v", doc.Todos.Agent)
	}
}

func TestToolCallsAndLedger(t *testing.T) {
	doc := export(t, viewtest.Project(t), viewtest.Active)
	// The five judged calls and the subagent's Grep, which only the call
	// history knows, each with its outcome.
	if len(doc.ToolCalls) != 6 {
		t.Fatalf("tool calls = %+v", doc.ToolCalls)
	}
	deny := doc.ToolCalls[4]
	if deny.Tool != "Bash" || deny.Target != "cat .env" || deny.Verdict != "deny" || deny.Rule != "secrets.read" || deny.Reason == "" || deny.Outcome != "blocked" {
		t.Errorf("denied call = %+v", deny)
	}
	if grep := doc.ToolCalls[1]; grep.Tool != "Grep" || grep.Agent != "explore" || grep.Outcome != "ok" || grep.DurationMS != 1200 {
		t.Errorf("the subagent's call = %+v", grep)
	}
	if test := doc.ToolCalls[3]; test.Outcome != "failed" || test.DurationMS != 61000 {
		t.Errorf("the failed test = %+v", test)
	}
	if len(doc.Decisions) != 7 || !doc.Decisions[6].Block {
		t.Errorf("decisions = %+v", doc.Decisions)
	}
	if !doc.Ledger.Verify.OK || len(doc.Ledger.Records) != 2 {
		t.Errorf("ledger = %+v", doc.Ledger)
	}
	if len(doc.Intents.Touched) != 1 || doc.Intents.Touched[0].ID != "auth" || doc.Intents.Touched[0].Records != 2 {
		t.Errorf("touched intents = %+v", doc.Intents.Touched)
	}
	if len(doc.Intents.Leases) != 1 || doc.Intents.Leases[0].Title != "Auth rework" {
		t.Errorf("leases = %+v", doc.Intents.Leases)
	}
}

// A ledger whose chain breaks fails the validation.
func TestLedgerBroken(t *testing.T) {
	root := viewtest.Project(t)
	f, err := os.OpenFile(governance.TracePath(root), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString(`{"version":"0.1","id":"x","timestamp":"2026-11-20T10:00:00Z","files":[]}` + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	doc := export(t, root, viewtest.Ended)
	if issue(doc, CodeLedger) == nil {
		t.Errorf("a broken chain is not reported: %+v", doc.Validation.Issues)
	}
}

func TestUnknownSession(t *testing.T) {
	root := viewtest.Project(t)
	s, err := view.Take(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(s, nil, "nope", now)
	if !errors.Is(err, view.ErrUnknownSession) || !strings.Contains(err.Error(), viewtest.Active+", "+viewtest.Ended) {
		t.Errorf("err = %v", err)
	}
	s, err = view.Take(context.Background(), t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err = Build(s, nil, "nope", now); err == nil || !strings.Contains(err.Error(), "no sessions") {
		t.Errorf("empty project: err = %v", err)
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile(filepath.Join("..", "..", "docs", "export.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validate(t *testing.T, sch *jsonschema.Schema, b []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("the export does not match docs/export.schema.json: %v", err)
	}
}

func validateDoc(t *testing.T, sch *jsonschema.Schema, d *view.Document) {
	t.Helper()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	validate(t, sch, b)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden (go test ./internal/export -update):\n%s", name, got)
	}
}

// The schema is strict: a key it does not describe fails, so a field
// added to the Go types without the schema fails TestGoldens.
func TestSchemaRejectsUnknownKeys(t *testing.T) {
	sch := compileSchema(t)
	doc := export(t, minimal(t), "sess-min")
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["session"].(map[string]any)["extra"] = 1
	if err := sch.Validate(m); err == nil {
		t.Error("the schema accepts a session with an unknown key")
	}
}

// The schema's enum of issue codes (the enum tag of view.Issue.Code) names
// every code Validate can give, and nothing else.
func TestIssueCodesInSchema(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "validate.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if strings.HasPrefix(n.Name, "Code") {
					v, err := strconv.Unquote(vs.Values[i].(*ast.BasicLit).Value)
					if err != nil {
						t.Fatal(err)
					}
					codes = append(codes, v)
				}
			}
		}
	}
	fld, _ := reflect.TypeFor[view.Issue]().FieldByName("Code")
	enum := strings.Split(fld.Tag.Get("enum"), ",")
	slices.Sort(codes)
	slices.Sort(enum)
	if len(codes) == 0 || !slices.Equal(codes, enum) {
		t.Errorf("issue codes %v, the schema's enum %v", codes, enum)
	}
}
