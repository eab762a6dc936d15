package guard

//go:generate go test -run ^TestRuleIndexGenerated$ -update

import (
	"iter"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Rules are loaded one batch at a time, on first use: batch i is what the
// registration registrations()[i] adds (one function of a rules_*.go
// file). The rules themselves are static data (package-level literals
// the compiler lays out); a registration lists them and builds the option
// tables and the few rules made by a helper. Loading every batch costs
// about 800 allocations and 180 KB of fresh heap, which a hook checking
// `go test` would pay for tables about git, cloud CLIs and databases; it
// loads the batches that file something under `go`, and those with a
// prefix rule ("mkfs*") only for a command the prefix begins.
// ruleindex_gen.go, generated from the registrations themselves
// (TestRuleIndexGenerated), says which batches those are, so no batch is
// loaded to find out. Within a command name, rules keep the order of
// registration: batches are visited in order.

// ruleBatch is one registration's rules and tables.
type ruleBatch struct {
	rules  []*Rule
	prefix []*Rule // rules with a name ending in *
	// valueOpts: per command name, its options that take a separate
	// value (setValueOpts).
	valueOpts map[string][]string
	// credPrinters: per command name, the commands that print a stored
	// credential (registerCredPrinters).
	credPrinters map[string][]credPrinter
}

var (
	batchMu sync.Mutex
	// loading is the batch whose registration runs, under batchMu: what
	// register and setValueOpts fill.
	loading *ruleBatch
	batches [ruleBatchCount]atomic.Pointer[ruleBatch]
)

// batch returns batch i, loading it on first use.
func batch(i int) *ruleBatch {
	if b := batches[i].Load(); b != nil {
		return b
	}
	batchMu.Lock()
	defer batchMu.Unlock()
	if b := batches[i].Load(); b != nil {
		return b
	}
	b := runRegistration(i)
	batches[i].Store(b)
	return b
}

// runRegistration runs registration i and files what it registers; the
// caller holds batchMu.
func runRegistration(i int) *ruleBatch {
	b := &ruleBatch{valueOpts: map[string][]string{}}
	loading = b
	builtin.register(i)
	loading = nil
	for _, r := range b.rules {
		for _, n := range r.Names {
			if prefixName(n) {
				b.prefix = append(b.prefix, r)
			}
		}
	}
	return b
}

// ruleTables runs registrations; builtin reaches them through this
// interface, which the compiler's initialization order does not follow:
// the rules are package-level data whose When functions load batches,
// so a direct call would close an initialization cycle.
type ruleTables interface{ register(i int) }

// builtinRules are the rules_*.go files' registrations.
type builtinRules struct{}

func (builtinRules) register(i int) { registrations()[i]() }

var builtin ruleTables = builtinRules{} // static data: no fields

// prefixName: a rule's name ending in * matches every command it begins
// (mkfs* is mkfs.ext4); the others match one name exactly.
func prefixName(n string) bool { return n != "" && n[len(n)-1] == '*' }

// batchesOf yields the batches of a set (bit i is batch i), in order.
func batchesOf(set uint64) iter.Seq[*ruleBatch] {
	return func(yield func(*ruleBatch) bool) {
		for set != 0 {
			i := bits.TrailingZeros64(set)
			set &^= 1 << i
			if !yield(batch(i)) {
				return
			}
		}
	}
}

// allBatches is the set of every batch.
const allBatches = 1<<ruleBatchCount - 1

// A set of batches is a uint64: past 64 registrations this does not
// compile, and files must register more rules each.
const _ uint64 = allBatches

// rulesNamed yields the rules filed under a command name, in order of
// registration.
func rulesNamed(name string) iter.Seq[*Rule] {
	return func(yield func(*Rule) bool) {
		for b := range batchesOf(batchesNamed(name)) {
			// A scan of the batch's few dozen rules: a map of them by
			// name cost more to build than a hook's lookups in it.
			for _, r := range b.rules {
				for _, n := range r.Names {
					if n == name && !prefixName(n) && !yield(r) {
						return
					}
				}
			}
		}
	}
}

// prefixRules yields the rules with a name ending in * from the batches
// where such a name is a prefix of name, in order of registration: a
// command no prefix rule can match loads no batch for them. Rules of
// those batches whose prefix does not match are yielded too; the caller
// tests each name.
func prefixRules(name string) iter.Seq[*Rule] {
	return func(yield func(*Rule) bool) {
		for b := range batchesOf(prefixBatchesOf(name)) {
			for _, r := range b.prefix {
				if !yield(r) {
					return
				}
			}
		}
	}
}

// namedBatch and idBatch are the rows of the generated index
// (ruleindex_gen.go): sorted tables searched in halves, which cost nothing
// to build when the hook starts.
type namedBatch struct {
	name string
	set  uint64
}

type idBatch struct {
	id    string
	batch int
}

// batchesNamed returns the batches that file a rule, value options or a
// credential printer under a command name.
func batchesNamed(name string) uint64 {
	i, ok := slices.BinarySearchFunc(namedBatches[:], name, func(e namedBatch, n string) int { return strings.Compare(e.name, n) })
	if !ok {
		return 0
	}
	return namedBatches[i].set
}

// batchOfID returns the batch that registers rule id first, or -1.
func batchOfID(id string) int {
	i, ok := slices.BinarySearchFunc(idBatches[:], id, func(e idBatch, id string) int { return strings.Compare(e.id, id) })
	if !ok {
		return -1
	}
	return idBatches[i].batch
}

// ruleByID returns the built-in rule id (its first registration), or nil.
func ruleByID(id ruleID) *Rule {
	i := batchOfID(id.name)
	if i < 0 {
		return nil
	}
	// A batch holds a few dozen rules: a scan costs less than filing
	// them all by id when the batch loads.
	for _, r := range batch(i).rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// optSets are a command's options that take a separate value, as the
// batches that file the command declare them: looked up in each rather
// than merged, which would cost a copy per command checked. Lists, not
// sets: a command's few dozen options are scanned faster than a set of
// them is built when its batch loads.
type optSets [][]string

func (s optSets) has(opt string) bool {
	for _, l := range s {
		if slices.Contains(l, opt) {
			return true
		}
	}
	return false
}

// valueOptsOf returns the options of a command that take a separate value.
func valueOptsOf(name string) optSets {
	var out optSets
	for b := range batchesOf(batchesNamed(name)) {
		if l := b.valueOpts[name]; len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// credPrintersOf returns the credential printers named name.
func credPrintersOf(name string) []credPrinter {
	var out []credPrinter
	for b := range batchesOf(batchesNamed(name)) {
		if out == nil {
			out = b.credPrinters[name]
			continue
		}
		out = append(slices.Clip(out), b.credPrinters[name]...)
	}
	return out
}

// registerCredPrinters files credential printers in the batch being
// loaded, by command name.
func registerCredPrinters(cps []credPrinter) {
	if loading.credPrinters == nil {
		loading.credPrinters = map[string][]credPrinter{}
	}
	for _, cp := range cps {
		for n := range cp.names {
			loading.credPrinters[n] = append(loading.credPrinters[n], cp)
		}
	}
}
