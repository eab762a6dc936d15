module github.com/atreides-dev/atreides

go 1.26.0

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/rogpeppe/go-internal v1.16.0
	go.etcd.io/bbolt v1.5.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.49.0
	mvdan.cc/sh/v3 v3.14.1
)

require golang.org/x/tools v0.38.0 // indirect
