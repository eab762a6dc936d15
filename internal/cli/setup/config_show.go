package setup

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/spf13/cobra"
)

// configShowOptions are the flags of 'atreides config show'.
type configShowOptions struct {
	asJSON   bool
	defaults bool
	changed  bool
}

func newConfigShowCmd(io *command.IO) *cobra.Command {
	o := &configShowOptions{}
	cmd := &cobra.Command{
		Use:   "show",
		Short: "the merged configuration, with the source of every value",
		Long: `The merged configuration of this project: built-in defaults, then
~/.config/atreides/config.yaml, then .atreides/config.yaml, with the
source of every value. --changed prints only the settings whose value
differs from the built-in default; --defaults prints the documented
defaults.`,
		Args: command.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.asJSON, "json", false, "print JSON: every setting with its value and source")
	f.BoolVar(&o.defaults, "defaults", false, "print the built-in defaults, with their documentation")
	f.BoolVar(&o.changed, "changed", false, "print only the settings that differ from the defaults, with their source")
	cmd.MarkFlagsMutuallyExclusive("defaults", "changed")
	return cmd
}

func (o *configShowOptions) run(io *command.IO) (err error) {
	if o.defaults {
		_, err := io.Out.Write(config.DefaultYAML())
		return err
	}
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	cfg, loadErr := command.LoadConfig(root)
	var verr *config.ValidationError
	switch {
	case errors.As(loadErr, &verr):
		// What is in force meanwhile is the fallback: show it, say why
		// on stderr, and exit 3 as validate does.
		fmt.Fprintf(io.Err, "%v\nshown: what is in force until this is fixed, the built-in configuration tightened by the settings that could be read\n", loadErr)
		defer func() { err = cmp.Or(err, error(&command.ProblemsError{N: len(verr.Errs)})) }()
	case loadErr != nil:
		return loadErr
	}
	// What trust left out goes to stderr: stdout stays a configuration.
	command.NoteUntrusted(io.Err, cfg.Trust())
	format := "yaml"
	if o.asJSON {
		format = "json"
	}
	if o.changed {
		var none bool
		if cfg, none = cfg.Changed(); none && !o.asJSON {
			// A comment alone is an empty YAML document: stdout stays a
			// configuration.
			_, err := io.Out.Write([]byte("# no setting differs from the built-in defaults\n"))
			return err
		}
	}
	return cfg.Show(io.Out, format)
}
