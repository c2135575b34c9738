// gzip.go: a compression run for the pair corpus (bench/corpus/list),
// built for wasip1 by bench/corpus/setup.sh with Debian's Go. It makes a
// fixed text-like buffer (words from a small vocabulary picked by an LCG,
// with numbers and punctuation), compresses it with compress/gzip at three
// levels, decompresses each result, checks it and prints sizes and CRCs.
// No clock, no randomness, no input: the output is fixed.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

var words = []string{
	"the", "module", "function", "memory", "table", "global", "export", "import",
	"branch", "loop", "block", "local", "value", "stack", "frame", "call",
	"interpreter", "register", "operand", "result", "trap", "bounds", "page", "grow",
	"and", "of", "to", "in", "is", "a", "for", "with",
}

func makeText(n int) []byte {
	var b bytes.Buffer
	b.Grow(n + 64)
	x := uint32(12345)
	for b.Len() < n {
		x = x*1664525 + 1013904223
		w := words[(x>>16)%uint32(len(words))]
		b.WriteString(w)
		switch (x >> 8) % 16 {
		case 0:
			fmt.Fprintf(&b, " %d", (x>>4)%100000)
		case 1:
			b.WriteString(".\n")
		case 2:
			b.WriteString(", ")
		default:
			b.WriteByte(' ')
		}
	}
	return b.Bytes()[:n]
}

func main() {
	data := makeText(512 << 10)
	fmt.Printf("input %d bytes crc32 %08x\n", len(data), crc32.ChecksumIEEE(data))
	for _, level := range []int{1, 6, 9} {
		var z bytes.Buffer
		w, err := gzip.NewWriterLevel(&z, level)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		w.Write(data)
		w.Close()
		r, err := gzip.NewReader(bytes.NewReader(z.Bytes()))
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		back, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(back, data) {
			fmt.Println("round trip failed", err)
			os.Exit(1)
		}
		fmt.Printf("level %d: %d bytes crc32 %08x\n", level, z.Len(), crc32.ChecksumIEEE(z.Bytes()))
	}
}
