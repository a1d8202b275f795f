package goroutines

import (
	"debug/dwarf"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"

	"github.com/perflab/perflab/internal/namedfile"
	"github.com/perflab/perflab/internal/objfile"
)

// errNoFunc is the error of a function that the binary or source does not
// declare (a closure, for instance, has no declaration of its own).
var errNoFunc = errors.New("function not found")

// ParamsFromBinary returns the parameters of fn as the DWARF data of the
// executable binary (ELF, Mach-O or PE) declares them.
func ParamsFromBinary(binary, fn string) ([]Param, error) {
	d, err := openDWARF(binary)
	if err != nil {
		return nil, err
	}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			return nil, fmt.Errorf("%s: %s: %w", binary, fn, errNoFunc)
		}
		if e.Tag != dwarf.TagSubprogram {
			if e.Tag != dwarf.TagCompileUnit {
				r.SkipChildren()
			}
			continue
		}
		if name, _ := e.Val(dwarf.AttrName).(string); !sameFunc(name, fn) || !e.Children {
			r.SkipChildren()
			continue
		}
		return dwarfParams(d, r)
	}
}

// dwarfParams reads the formal parameters among a subprogram's children.
func dwarfParams(d *dwarf.Data, r *dwarf.Reader) ([]Param, error) {
	var ps []Param
	for {
		e, err := r.Next()
		if err != nil {
			return nil, err
		}
		if e == nil || e.Tag == 0 {
			return ps, nil
		}
		if e.Children {
			r.SkipChildren()
		}
		if out, _ := e.Val(dwarf.AttrVarParam).(bool); e.Tag != dwarf.TagFormalParameter || out {
			continue
		}
		p := Param{Type: "?"}
		p.Name, _ = e.Val(dwarf.AttrName).(string)
		if p.Name == ".dict" {
			continue // a generic function's dictionary, which tracebacks leave out
		}
		if off, ok := e.Val(dwarf.AttrType).(dwarf.Offset); ok {
			if t, err := d.Type(off); err == nil {
				p.Type = dwarfTypeName(t)
			}
		}
		ps = append(ps, p)
	}
}

// openDWARF reads the DWARF data of binary, which the user named (-binary,
// or the program run after --), within package objfile's bounds.
func openDWARF(binary string) (*dwarf.Data, error) {
	f, err := objfile.OpenArg(binary) // an error names binary
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.DWARF()
}

// maxParseBytes is the largest source file ParamsFromSource parses.
const maxParseBytes = 16 << 20

// ParamsFromSource returns the parameters of fn (a method's receiver
// first) as declared in the Go source file.
func ParamsFromSource(file, fn string) ([]Param, error) {
	recv, name := splitFunc(fn)
	if name == "" {
		return nil, fmt.Errorf("%s: %s: %w", file, fn, errNoFunc)
	}
	// The dump named the file: read it as every file input names is read.
	src, err := namedfile.ReadFile(file, maxParseBytes, "a source file to parse")
	if err != nil {
		return nil, fmt.Errorf("%s: no readable source: %w", file, err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name || receiverName(fd) != recv {
			continue
		}
		var ps []Param
		if fd.Recv != nil {
			ps = fieldParams(ps, fd.Recv)
		}
		return fieldParams(ps, fd.Type.Params), nil
	}
	return nil, fmt.Errorf("%s: %s: %w", file, fn, errNoFunc)
}

// splitFunc splits "main.(*T).M" into "T" and "M", "main.f" into "" and
// "f"; a closure ("main.main.func1") gives no name.
func splitFunc(fn string) (recv, name string) {
	fn = strings.ReplaceAll(fn, "[...]", "")
	slash := strings.LastIndexByte(fn, '/')
	rest := fn[slash+1:]
	_, rest, ok := strings.Cut(rest, ".")
	if !ok {
		return "", ""
	}
	parts := strings.Split(rest, ".")
	switch len(parts) {
	case 1:
		return "", parts[0]
	case 2:
		if strings.HasPrefix(parts[1], "func") {
			return "", ""
		}
		return strings.Trim(parts[0], "(*)"), parts[1]
	}
	return "", ""
}

func receiverName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func fieldParams(ps []Param, fl *ast.FieldList) []Param {
	for _, f := range fl.List {
		typ := types.ExprString(f.Type)
		if len(f.Names) == 0 {
			ps = append(ps, Param{Name: "_", Type: typ})
		}
		for _, n := range f.Names {
			ps = append(ps, Param{Name: n.Name, Type: typ})
		}
	}
	return ps
}

// dwarfTypeName writes a DWARF type as Go does: "string" and "[]int", not
// "struct string".
func dwarfTypeName(t dwarf.Type) string {
	if st, ok := t.(*dwarf.StructType); ok && st.StructName != "" {
		return st.StructName
	}
	return t.String()
}

// sameFunc reports whether the DWARF name of a function is the one a
// traceback prints, which writes a generic function's type arguments as
// "[...]": "main.Map[go.shape.int]" is "main.Map[...]".
func sameFunc(dwarfName, printed string) bool {
	if dwarfName == printed {
		return true
	}
	before, after, ok := strings.Cut(printed, "[...]")
	if !ok || !strings.HasPrefix(dwarfName, before+"[") {
		return false
	}
	end := strings.LastIndexByte(dwarfName, ']')
	return end > len(before) && dwarfName[end+1:] == after
}
