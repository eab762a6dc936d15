//go:build !unix

package hook

import "errors"

func execWith(bin string, argv, env []string, payload []byte) error {
	return errors.New("a team store needs atreides-team installed as the hook command on this system: run 'atreides-team install <host>'")
}
