package config

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/lazy"
)

//go:embed defaults.yaml
var defaultYAML []byte

// DefaultYAML returns the built-in defaults, comments included; it is the
// reference documentation of every setting.
func DefaultYAML() []byte { return bytes.Clone(defaultYAML) }

// maxFileSize bounds what one hook call will read and parse; a config
// file is a few hundred bytes, so anything near this is a mistake.
const maxFileSize = 1 << 20

// Paths are the config files to layer over the defaults. An empty path is
// skipped, and so is a file that does not exist.
type Paths struct {
	User, Project string
	// Trust is the user's trust record (trust.go): the project file is
	// applied whole only when the record trusts it as it is now, and is
	// screened otherwise. "" trusts no project file.
	Trust string
}

// LoadOrBuiltin is [Load] of p or, when its files cannot be read whole,
// the built-in configuration tightened by what could be read ([Fallback])
// with the error that says why: for a reader that goes on (the hooks and
// 'config validate' report a broken file), and goes on as the hooks do.
// The Config is never nil.
func LoadOrBuiltin(p Paths) (*Config, error) {
	c, err := Load(p)
	if err != nil {
		return Fallback(p), err
	}
	return c, nil
}

// Builtin is the built-in configuration, defaults.yaml as [Load] gives it
// when no file exists. It is one typed value generated from defaults.yaml
// (defaults_gen.go), so nothing is parsed or walked to get it; each call
// returns a fresh copy, which the caller may keep.
func Builtin() *Config {
	c := builtinConfig()
	c.builtin = true
	return c
}

// tree is c's value tree: the defaults' own for [Builtin]'s, built on
// first use.
func (c *Config) tree() *value {
	if c.root == nil && c.builtin {
		return defaultTree()
	}
	return c.root
}

// Exist reports whether either file may exist. A hook uses it to skip
// parsing altogether when the built-in defaults are all there is; a file
// that cannot even be stat'ed counts as existing, so that Load reports it,
// and so does a link that leads nowhere, which Load refuses in a project.
func (p Paths) Exist() bool {
	stamp, _ := p.Stamp()
	return stampExists(stamp)
}

// stampExists reads [Paths.Exist] off the files' stamp: a part that is
// neither empty (no path) nor "-" (no file) names something there, even
// one that cannot be stat'ed or a dangling link, which Load reports.
func stampExists(stamp string) bool {
	// Split without a slice: every handler list asks (the preset), and a
	// hook builds one per event.
	_, rest, _ := strings.Cut(stamp, "|")
	for part := range strings.SplitSeq(rest, "|") {
		if part != "" && part != "-" {
			return true
		}
	}
	return false
}

// DefaultPaths returns the user file ($XDG_CONFIG_HOME/atreides/config.yaml,
// else ~/.config/atreides/config.yaml, on every OS so that one dotfile
// works everywhere) and, if projectRoot is not empty, the project file
// <projectRoot>/.atreides/config.yaml.
func DefaultPaths(projectRoot string) Paths {
	var p Paths
	// The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
	if dir := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(dir) {
		p.User = filepath.Join(dir, "atreides", "config.yaml")
	} else if home, err := os.UserHomeDir(); err == nil {
		p.User = filepath.Join(home, ".config", "atreides", "config.yaml")
	}
	if projectRoot != "" {
		p.Project = filepath.Join(projectRoot, ".atreides", "config.yaml")
		if p.User != "" {
			p.Trust = filepath.Join(filepath.Dir(p.User), TrustFileName)
		}
	}
	return p
}

// defaultTree is the built-in defaults, built once per process from Go
// values generated from defaults.yaml (defaults_gen.go), so a hook that
// loads a config file parses that file only. The tree is never modified,
// so every Load shares it.
//
//go:generate go test -run ^TestDefaultsGenerated$ -update
var defaultTreeValue = lazy.Value[*value]{New: builtinTree}

func defaultTree() *value { return defaultTreeValue.Get() }

// Load reads, validates and merges the defaults, the user file and the
// project file. A missing file is skipped. Invalid files give a
// *ValidationError listing every problem of both files; an unreadable file
// gives a wrapped I/O error.
func Load(p Paths) (*Config, error) {
	layers, err := readLayers(p)
	if err != nil {
		return nil, err
	}
	return load(p, layers)
}

// load is Load of files already read.
func load(p Paths, layers []layer) (*Config, error) {
	c, errs, err := build(p, layers, true)
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return nil, newValidationError(errs)
	}
	return c, nil
}

// Validate checks both files in one pass: their form (syntax, keys, types,
// values) and, through meaning, what only other packages can judge (the
// guard's rule ids, for one). Load stops at form problems, so a caller
// that checked meaning only on what Load returned found one kind of
// problem per run: here the well-formed part of a file with form problems
// is checked for meaning too, and the result lists every problem of both
// kinds. meaning may be nil. Retired keys the files still set come back
// as notes, whatever the outcome.
func Validate(p Paths, meaning func(*Config) []FieldError) (notes []FieldError, err error) {
	layers, err := readLayers(p)
	if err != nil {
		return nil, err
	}
	// The files are checked as written: a setting that trust would
	// leave out is still one the user will want right once trusted.
	c, errs, err := build(p, layers, false)
	if err != nil {
		return nil, err
	}
	if meaning != nil {
		errs = append(errs, meaning(c)...)
	}
	if len(errs) > 0 {
		return c.notes, newValidationError(errs)
	}
	return c.notes, nil
}

func readLayers(p Paths) ([]layer, error) {
	var layers []layer
	for _, f := range []struct {
		name    string
		project bool
	}{{p.User, false}, {p.Project, true}} {
		if f.name == "" {
			continue
		}
		data, err := readFile(f.name, f.project)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		layers = append(layers, layer{f.name, data, f.project})
	}
	return layers, nil
}

// layer is one config file's name and contents.
type layer struct {
	file    string
	data    []byte
	project bool
}

// build validates the layers and merges them over the defaults, lowest
// first. Every file is checked even after one fails, so that one run
// reports all problems; the values a file gets right are merged even when
// others are wrong (Load discards the result then; Validate checks it).
// With screened, an untrusted project file is screened (screen.go).
func build(p Paths, layers []layer, screened bool) (*Config, []FieldError, error) {
	if len(layers) == 0 {
		return Builtin(), nil, nil
	}
	def := defaultTree()
	root := def
	var errs, notes []FieldError
	var trust Trust
	for _, l := range layers {
		v, ferrs, fnotes := parse(l.file, l.data)
		errs = append(errs, ferrs...)
		notes = append(notes, fnotes...)
		if l.project && screened {
			trust = p.trustOf(l.data, v)
			if v != nil && !trust.Trusted {
				v, trust.Ignored = screen(root, v)
			}
		}
		if v != nil {
			root = merge(root, v, def)
		}
	}
	c := &Config{root: root, notes: notes, trust: trust}
	assign(reflect.ValueOf(c).Elem(), root)
	return c, errs, nil
}

func newValidationError(errs []FieldError) *ValidationError {
	verr := &ValidationError{Errs: errs}
	verr.sort()
	return verr
}

// readFile reads one config file, bounded in size and in time: it must be a
// regular file, so a FIFO or device in its place is refused at once instead
// of blocking the hook (which holds the state lock) until something writes.
//
// The project file comes from the repository, so neither it nor the
// .atreides directory holding it is followed if it is a link (a link is
// refused: the guard fails closed on it). The user's file is the user's own
// and may be a link (GNU Stow and home-manager make it one); it is followed,
// and the file it leads to must be regular too.
func readFile(name string, project bool) ([]byte, error) {
	base, rel := confined.Split(name, 2)
	if !project {
		real, err := filepath.EvalSymlinks(name)
		if err != nil {
			return nil, notExistOr(err)
		}
		base, rel = filepath.Dir(real), filepath.Base(real)
	}
	data, err := confined.ReadFile(base, rel, maxFileSize)
	if err != nil {
		return nil, notExistOr(err)
	}
	return data, nil
}

// notExistOr passes a missing file on as it is (Load skips it) and marks
// every other failure as the configuration's.
func notExistOr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return fmt.Errorf("config: %w", err)
}

// Lazy loads the configuration on first use, at most once; an event that
// needs no configuration never reads a file. It is safe for concurrent use.
type Lazy struct {
	get      func() (*Config, error)
	stamp    func() (string, bool) // of the files, taken once
	fallback func() *Config
}

// Fallback is [Fallback] of the files, built at most once: what to go on
// with when Get fails, or when another package refuses what it gives.
func (l *Lazy) Fallback() *Config {
	if l.fallback == nil {
		return Builtin()
	}
	return l.fallback()
}

// Usable is Get's configuration, or when the files cannot be read whole,
// the Fallback with the error that says why.
func (l *Lazy) Usable() (*Config, error) {
	c, err := l.get()
	if err != nil {
		return l.Fallback(), err
	}
	return c, nil
}

// Get loads the configuration the first time and returns the same result,
// or the same error, ever after.
func (l *Lazy) Get() (*Config, error) { return l.get() }

// Exist is [Paths.Exist] of the files, from the one look at them that Get
// keys its cache by.
func (l *Lazy) Exist() bool {
	stamp, _ := l.stamp()
	return stampExists(stamp)
}

// merge layers src over dst. Mappings merge per key; lists and scalars
// replace. A null in src resets the key to its value in def (the defaults
// at the same place), or removes it when the defaults have none. Neither
// input is modified.
func merge(dst, src, def *value) *value {
	if src == nil {
		return dst
	}
	if dst == nil || dst.kind != kindMapping || src.kind != kindMapping {
		return src
	}
	out := &value{
		kind:   kindMapping,
		free:   dst.free,
		src:    src.src,
		keys:   make([]string, len(dst.keys), len(dst.keys)+len(src.keys)),
		fields: make(map[string]*value, len(dst.fields)+len(src.fields)),
	}
	copy(out.keys, dst.keys)
	for k, v := range dst.fields {
		out.fields[k] = v
	}
	for _, k := range src.keys {
		sv := src.fields[k]
		var dv *value
		if def != nil {
			dv = def.child(k)
		}
		_, had := out.fields[k]
		if sv.kind == kindNull {
			if dv != nil {
				out.fields[k] = dv
			} else if had {
				delete(out.fields, k)
				out.keys = removeKey(out.keys, k)
			}
			continue
		}
		if !had {
			out.keys = append(out.keys, k)
		}
		out.fields[k] = merge(out.fields[k], sv, dv)
	}
	return out
}

func removeKey(keys []string, k string) []string {
	for i, x := range keys {
		if x == k {
			return append(keys[:i:i], keys[i+1:]...)
		}
	}
	return keys
}

// assign copies a merged tree into the typed struct. The tree was built
// against the same types, so the type assertions hold.
func assign(rv reflect.Value, v *value) {
	switch rv.Kind() {
	case reflect.Struct:
		t := rv.Type()
		for i := range t.NumField() {
			name := yamlName(t.Field(i))
			if name == "" {
				continue
			}
			if c := v.fields[name]; c != nil {
				assign(rv.Field(i), c)
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(rv.Type(), len(v.items), len(v.items))
		for i, it := range v.items {
			assign(s.Index(i), it)
		}
		rv.Set(s)
	case reflect.Map:
		m := reflect.MakeMapWithSize(rv.Type(), len(v.keys))
		for _, k := range v.keys {
			e := reflect.New(rv.Type().Elem()).Elem()
			assign(e, v.fields[k])
			m.SetMapIndex(reflect.ValueOf(k).Convert(rv.Type().Key()), e)
		}
		rv.Set(m)
	case reflect.String:
		rv.SetString(v.scalar.(string))
	case reflect.Bool:
		rv.SetBool(v.scalar.(bool))
	case reflect.Int:
		rv.SetInt(int64(v.scalar.(int)))
	}
}

func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return ""
	}
	return name
}
