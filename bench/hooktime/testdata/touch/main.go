// Command touch is a program of known size for hooktime's tests: it
// allocates the number of MiB given as its argument, writes every page,
// and exits.
package main

import (
	"os"
	"strconv"
)

var sink []byte

func main() {
	n, err := strconv.Atoi(os.Args[1])
	if err != nil {
		os.Exit(1)
	}
	sink = make([]byte, n<<20)
	for i := 0; i < len(sink); i += 4096 {
		sink[i] = 1
	}
}
