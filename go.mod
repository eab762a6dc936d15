module github.com/atreides-dev/atreides

go 1.26.0

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	go.etcd.io/bbolt v1.5.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.49.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
