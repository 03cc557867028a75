package iosource

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// TestKinds: the (n, err) of each Read, 4 octets asked at a time of 10,
// for the kinds that act at offset 5.
func TestKinds(t *testing.T) {
	broken := errors.New("broken")
	data := []byte("0123456789")
	for _, tc := range []struct {
		k    Kind
		want string
	}{
		{Fails, "4 <nil>; 1 broken"},
		{Zero, "4 <nil>; 4 <nil>; 0 <nil>; 2 <nil>; 0 EOF"},
		{Negative, "4 <nil>; 4 <nil>; -1 <nil>; 2 <nil>; 0 EOF"},
		{TooMany, "4 <nil>; 4 <nil>; 5 <nil>; 0 EOF"},
	} {
		r := New(tc.k, 5, data, broken)
		var got []string
		for range 6 {
			n, err := r.Read(make([]byte, 4))
			got = append(got, fmt.Sprint(n, " ", err))
			if err != nil {
				break
			}
		}
		if s := strings.Join(got, "; "); s != tc.want {
			t.Errorf("%s: %s, want %s", tc.k.Name(5), s, tc.want)
		}
	}
	// DataTimeout's error is one a caller retries after: the stream goes
	// on, from the octet after the ones that came with it.
	for at, want := range map[int]string{5: "4 <nil>; 1 dl; 4 <nil>; 1 <nil>; 0 EOF", 0: "0 dl; 4 <nil>; 4 <nil>; 2 <nil>; 0 EOF"} {
		r := New(DataTimeout, at, data, broken)
		var got []string
		for range 5 {
			n, err := r.Read(make([]byte, 4))
			if errors.Is(err, os.ErrDeadlineExceeded) {
				err = errors.New("dl")
			}
			got = append(got, fmt.Sprint(n, " ", err))
		}
		if s := strings.Join(got, "; "); s != want {
			t.Errorf("%s: %s, want %s", DataTimeout.Name(at), s, want)
		}
	}
	if _, err := io.ReadAll(New(DataErr, 0, data, broken)); err != nil {
		t.Errorf("DataErr: %v", err)
	}
	if n, err := New(DataErr, 0, data, broken).Read(nil); n != 0 || err != nil {
		t.Errorf("DataErr: an empty Read = %d, %v, want 0, nil", n, err)
	}
	if Plain.Name(3) != "bytes.Reader" || TooMany.Name(3) != "count len(p)+1 at 3" {
		t.Errorf("names: %q, %q", Plain.Name(3), TooMany.Name(3))
	}
}
