package solver

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// sexpr is an S-expression: an atom or a list.
type sexpr struct {
	atom   string
	list   []sexpr
	isList bool
}

// parseSexpr reads one S-expression from the start of s and returns it and
// the rest of s.
func parseSexpr(s string) (sexpr, string, error) {
	s = strings.TrimLeft(s, " \t\r\n")
	if s == "" {
		return sexpr{}, "", errors.New("unexpected end of output")
	}
	switch s[0] {
	case '(':
		e := sexpr{isList: true}
		s = s[1:]
		for {
			s = strings.TrimLeft(s, " \t\r\n")
			if s == "" {
				return sexpr{}, "", errors.New("unclosed list")
			}
			if s[0] == ')' {
				return e, s[1:], nil
			}
			sub, rest, err := parseSexpr(s)
			if err != nil {
				return sexpr{}, "", err
			}
			e.list = append(e.list, sub)
			s = rest
		}
	case ')':
		return sexpr{}, "", errors.New("unexpected )")
	case '|':
		end := strings.IndexByte(s[1:], '|')
		if end < 0 {
			return sexpr{}, "", errors.New("unclosed |symbol|")
		}
		return sexpr{atom: s[:end+2]}, s[end+2:], nil
	}
	end := strings.IndexAny(s, " \t\r\n()")
	if end < 0 {
		end = len(s)
	}
	return sexpr{atom: s[:end]}, s[end:], nil
}

// parseValues reads the answer to (get-value (t1 … tn)): a list of n
// pairs (term value).
func parseValues(s string, n int) ([]uint64, error) {
	if n == 0 {
		return nil, nil
	}
	e, _, err := parseSexpr(s)
	if err != nil {
		return nil, err
	}
	if !e.isList || len(e.list) != n {
		return nil, fmt.Errorf("want %d values, got %q", n, strings.TrimSpace(s))
	}
	out := make([]uint64, n)
	for i, pair := range e.list {
		if !pair.isList || len(pair.list) != 2 {
			return nil, fmt.Errorf("value %d is not a pair", i)
		}
		v, err := literal(pair.list[1])
		if err != nil {
			return nil, fmt.Errorf("value %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// literal reads a Bool or bit-vector literal: true, false, #x…, #b…,
// (_ bvN w).
func literal(e sexpr) (uint64, error) {
	if e.isList {
		if len(e.list) == 3 && e.list[0].atom == "_" && strings.HasPrefix(e.list[1].atom, "bv") {
			return strconv.ParseUint(e.list[1].atom[2:], 10, 64)
		}
		return 0, fmt.Errorf("not a literal: %v", e)
	}
	switch a := e.atom; {
	case a == "true":
		return 1, nil
	case a == "false":
		return 0, nil
	case strings.HasPrefix(a, "#x"):
		return strconv.ParseUint(a[2:], 16, 64)
	case strings.HasPrefix(a, "#b"):
		return strconv.ParseUint(a[2:], 2, 64)
	}
	return 0, fmt.Errorf("not a literal: %q", e.atom)
}
