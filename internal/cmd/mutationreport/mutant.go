package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// replacement is what each gremlins mutator writes in place of an operator
// token (gremlins v0.6.0, internal/engine: the token of an assignment, binary,
// unary, increment or branch statement is swapped for another one).
var replacement = map[string]map[token.Token]token.Token{
	"ARITHMETIC_BASE": {token.ADD: token.SUB, token.SUB: token.ADD,
		token.MUL: token.QUO, token.QUO: token.MUL, token.REM: token.MUL},
	"CONDITIONALS_BOUNDARY": {token.LSS: token.LEQ, token.LEQ: token.LSS,
		token.GTR: token.GEQ, token.GEQ: token.GTR},
	"CONDITIONALS_NEGATION": {token.EQL: token.NEQ, token.NEQ: token.EQL,
		token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ, token.LEQ: token.GTR},
	"INCREMENT_DECREMENT": {token.INC: token.DEC, token.DEC: token.INC},
	"INVERT_NEGATIVES":    {token.SUB: token.ADD},
	"INVERT_LOGICAL":      {token.LAND: token.LOR, token.LOR: token.LAND},
	"INVERT_LOOPCTRL":     {token.BREAK: token.CONTINUE, token.CONTINUE: token.BREAK},
	"INVERT_ASSIGNMENTS": {token.ADD_ASSIGN: token.SUB_ASSIGN, token.SUB_ASSIGN: token.ADD_ASSIGN,
		token.MUL_ASSIGN: token.QUO_ASSIGN, token.QUO_ASSIGN: token.MUL_ASSIGN,
		token.REM_ASSIGN: token.REM_ASSIGN},
	"INVERT_BITWISE": {token.AND: token.OR, token.OR: token.AND, token.XOR: token.AND,
		token.AND_NOT: token.AND, token.SHL: token.SHR, token.SHR: token.SHL},
	"INVERT_BWASSIGN": {token.AND_ASSIGN: token.OR_ASSIGN, token.OR_ASSIGN: token.AND_ASSIGN,
		token.XOR_ASSIGN: token.AND_ASSIGN, token.AND_NOT_ASSIGN: token.AND_ASSIGN,
		token.SHL_ASSIGN: token.SHR_ASSIGN, token.SHR_ASSIGN: token.SHL_ASSIGN},
	"REMOVE_SELF_ASSIGNMENTS": {token.ADD_ASSIGN: token.ASSIGN, token.SUB_ASSIGN: token.ASSIGN,
		token.MUL_ASSIGN: token.ASSIGN, token.QUO_ASSIGN: token.ASSIGN, token.REM_ASSIGN: token.ASSIGN,
		token.AND_ASSIGN: token.ASSIGN, token.OR_ASSIGN: token.ASSIGN, token.XOR_ASSIGN: token.ASSIGN,
		token.AND_NOT_ASSIGN: token.ASSIGN, token.SHL_ASSIGN: token.ASSIGN, token.SHR_ASSIGN: token.ASSIGN},
}

// mutant is one mutated program: the operator at Offset of File rewritten
// from From to To. Types are the gremlins mutators that produce it (SUB is
// rewritten to ADD by both ARITHMETIC_BASE and INVERT_NEGATIVES), Statuses
// every outcome gremlins reported for it.
type mutant struct {
	File      string
	Line, Col int
	Offset    int
	From, To  token.Token
	Types     []string
	Statuses  []string
	Text      string // the source line, trimmed
	Unbuilt   string // why the mutated package does not build or vet; "" if it does
	class     *class // the docs entry classifying a survivor
}

// Status merges the outcomes reported for one program: LIVED if any run
// lived (the conservative reading when duplicates disagree), else KILLED,
// else the first one reported.
func (m *mutant) Status() string {
	for _, s := range []string{lived, killed} {
		if slices.Contains(m.Statuses, s) {
			return s
		}
	}
	return m.Statuses[0]
}

// Pos is the mutant's position as gremlins prints it, module-relative.
func (m *mutant) Pos() string { return fmt.Sprintf("%s:%d:%d", m.File, m.Line, m.Col) }

// sourceFile indexes the mutable operator tokens of one Go file by line and column.
type sourceFile struct {
	data   []byte
	lines  []string
	tokens map[[2]int]token.Token
	offset map[[2]int]int
}

func loadSource(root, file string) (*sourceFile, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, data, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	src := &sourceFile{data: data, lines: strings.Split(string(data), "\n"),
		tokens: map[[2]int]token.Token{}, offset: map[[2]int]int{}}
	ast.Inspect(f, func(n ast.Node) bool {
		var tok token.Token
		var pos token.Pos
		switch n := n.(type) {
		case *ast.AssignStmt:
			tok, pos = n.Tok, n.TokPos
		case *ast.BinaryExpr:
			tok, pos = n.Op, n.OpPos
		case *ast.BranchStmt:
			tok, pos = n.Tok, n.TokPos
		case *ast.IncDecStmt:
			tok, pos = n.Tok, n.TokPos
		case *ast.UnaryExpr:
			tok, pos = n.Op, n.OpPos
		default:
			return true
		}
		p := fset.Position(pos)
		src.tokens[[2]int{p.Line, p.Column}] = tok
		src.offset[[2]int{p.Line, p.Column}] = p.Offset
		return true
	})
	return src, nil
}

// mutants groups gremlins' entries into distinct mutated programs, reading
// the operator at each position from the sources under root (which must be
// the sources gremlins mutated).
func mutants(root string, entries []entry) ([]*mutant, error) {
	files := map[string]*sourceFile{}
	byKey := map[string]*mutant{}
	var out []*mutant
	for _, e := range entries {
		src, ok := files[e.File]
		if !ok {
			var err error
			if src, err = loadSource(root, e.File); err != nil {
				return nil, err
			}
			files[e.File] = src
		}
		at := [2]int{e.Line, e.Col}
		from, ok := src.tokens[at]
		if !ok {
			return nil, fmt.Errorf("%s:%d:%d: no operator there: are these the sources gremlins mutated?", e.File, e.Line, e.Col)
		}
		to, ok := replacement[e.Type][from]
		if !ok {
			return nil, fmt.Errorf("%s:%d:%d: gremlins mutator %s does not apply to %q", e.File, e.Line, e.Col, e.Type, from)
		}
		key := fmt.Sprintf("%s:%d:%d:%s", e.File, e.Line, e.Col, to)
		m, ok := byKey[key]
		if !ok {
			m = &mutant{File: e.File, Line: e.Line, Col: e.Col, Offset: src.offset[at],
				From: from, To: to, Text: strings.TrimSpace(src.lines[e.Line-1])}
			byKey[key] = m
			out = append(out, m)
		}
		if !slices.Contains(m.Types, e.Type) {
			m.Types = append(m.Types, e.Type)
		}
		m.Statuses = append(m.Statuses, e.Status)
	}
	return out, nil
}

// mutate returns src with the mutant's operator rewritten.
func (m *mutant) mutate(src []byte) []byte {
	from, to := m.From.String(), m.To.String()
	out := make([]byte, 0, len(src)+len(to))
	out = append(out, src[:m.Offset]...)
	out = append(out, to...)
	return append(out, src[m.Offset+len(from):]...)
}
