// Package adversarial reads the adversarial corpus (cases.jsonl, written by
// gen.py; docs/reliability.md) that every host runs: hostile documents and
// expressions, each with one expected outcome, a value or an error code.
package adversarial

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

// Case is one line of cases.jsonl.
type Case struct {
	ID         string            `json:"id"`
	Expression Pieces            `json:"expression"`
	Variables  map[string]string `json:"variables"`
	Activation Pieces            `json:"activation"`
	CostLimit  uint64            `json:"costLimit"`
	Expect     struct {
		Value json.RawMessage `json:"value"`
		Error string          `json:"error"`
	} `json:"expect"`
	// CLI is the CLI's outcome where reading the activation as a file
	// differs (cmd/celwasm's test): the values printed, one per document,
	// or the exit status and the error code on stderr.
	CLI *struct {
		Values []json.RawMessage `json:"values"`
		Exit   int               `json:"exit"`
		Error  string            `json:"error"`
	} `json:"cli"`
}

// Pieces is text given as [[piece, count], ...] (a piece is a string or
// {"hex": "..."}), or as a plain string.
type Pieces []byte

func (p *Pieces) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*p = []byte(s)
		return nil
	}
	var list [][2]json.RawMessage
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	var out []byte
	for _, pc := range list {
		var piece []byte
		var text string
		var h struct{ Hex string }
		if json.Unmarshal(pc[0], &text) == nil {
			piece = []byte(text)
		} else if err := json.Unmarshal(pc[0], &h); err == nil {
			if piece, err = hex.DecodeString(h.Hex); err != nil {
				return err
			}
		} else {
			return fmt.Errorf("piece %s", pc[0])
		}
		var n int
		if err := json.Unmarshal(pc[1], &n); err != nil {
			return err
		}
		out = append(out, bytes.Repeat(piece, n)...)
	}
	*p = out
	return nil
}

// Path is cases.jsonl beside this file.
func Path() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "cases.jsonl")
}

// Names are the case's variable names, sorted (declarations in a stable order).
func (c Case) Names() []string { return slices.Sorted(maps.Keys(c.Variables)) }

// Load reads the corpus; the first case is the canary.
func Load() ([]Case, error) {
	f, err := os.Open(Path())
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []Case
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("cases.jsonl:%d: %w", len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	return cases, sc.Err()
}
