package abi

import (
	"bytes"
	"reflect"
	"testing"
)

func TestPairsSpecExample(t *testing.T) {
	// The ABI spec's example: {{"a": "1"}, {"b": "22"}}.
	want := []byte{
		2, 0, 0, 0,
		1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0,
		'a', 0, '1', 0, 'b', 0, '2', '2', 0,
	}
	pairs := []Pair{{"a", "1"}, {"b", "22"}}
	got := AppendPairs(nil, pairs)
	if !bytes.Equal(got, want) {
		t.Fatalf("AppendPairs = %v, want %v", got, want)
	}
	back, err := ParsePairs(got)
	if err != nil || !reflect.DeepEqual(back, pairs) {
		t.Fatalf("ParsePairs = %v, %v", back, err)
	}
}

func TestPairsEmptyAndMalformed(t *testing.T) {
	for _, b := range [][]byte{nil, {}, {0}} {
		if p, err := ParsePairs(b); err != nil || len(p) != 0 {
			t.Errorf("ParsePairs(%v) = %v, %v; want empty", b, p, err)
		}
	}
	if got := AppendPairs(nil, nil); len(got) != 0 {
		t.Errorf("AppendPairs(nil) = %v", got)
	}
	good := AppendPairs(nil, []Pair{{"key", "value"}, {"", ""}})
	for _, bad := range [][]byte{
		{1, 0, 0},          // short count
		{9, 0, 0, 0, 0, 0}, // count larger than the data
		good[:len(good)-1], // truncated
		append(good[:4:4], 255, 255, 255, 255, 0, 0, 0, 0), // huge key size
	} {
		if _, err := ParsePairs(bad); err == nil {
			t.Errorf("ParsePairs(%v) accepted malformed input", bad)
		}
	}
	corrupt := append([]byte(nil), good...)
	corrupt[4+16+3] = 'X' // the NUL after "key"
	if _, err := ParsePairs(corrupt); err == nil {
		t.Error("ParsePairs accepted a missing NUL")
	}
}
