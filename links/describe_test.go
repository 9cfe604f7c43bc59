package links

import (
	"strings"
	"testing"
)

// TestDescriptionApart: a link alone in its block takes its description
// from where link directories write it, apart from the link, and no more
// than that one block; a link with text of its own keeps its own.
func TestDescriptionApart(t *testing.T) {
	desc := "Mestský portál s novinkami a kultúrou"
	tests := []struct{ name, html, want string }{
		{"the next cell of its row",
			`<table><tr><td><a href="a">Mesto</a></td><td>` + desc + `</td><td>2024</td></tr></table>`,
			"a|" + desc},
		{"the cells before it in its row",
			`<table><tr><td>Mesto</td><td>` + desc + `</td><td><a href="a">www.mesto.sk</a></td></tr></table>`,
			"a|Mesto " + desc},
		{"cells whose end tags are implied",
			`<table><tr><td><a href="a">Mesto</a><td>` + desc + `<td>2024</table>`,
			"a|" + desc},
		{"not the cells of another row",
			`<table><tr><td>` + desc + `</td></tr><tr><td><a href="a">www.mesto.sk</a></td></tr></table>`,
			"a|"},
		{"not a cell another link took",
			`<table><tr><td><a href="a">A</a></td><td>` + desc + `</td><td><a href="b">www.b.sk</a></td></tr></table>`,
			"a|" + desc + "\nb|"},
		{"the <dd> after its <dt>",
			`<dl><dt><a href="a">Mesto</a></dt><dd>` + desc + `</dd><dt><a href="b">Hrad</a></dt><dd>Zrúcanina nad riekou</dd></dl>`,
			"a|" + desc + "\nb|Zrúcanina nad riekou"},
		{"a <dd> whose <dt> end tag is implied",
			`<dl><dt><a href="a">Mesto</a><dd>` + desc + `<dt><a href="b">Hrad</a><dd>Zrúcanina nad riekou</dl>`,
			"a|" + desc + "\nb|Zrúcanina nad riekou"},
		{"the line after a <br>",
			`<p><a href="a">Mesto</a><br>` + desc + `<br><a href="b">Hrad</a><br>Zrúcanina nad riekou</p><p>Iný text tu</p>`,
			"a|" + desc + "\nb|Zrúcanina nad riekou"},
		{"the paragraph after a heading",
			`<h3><a href="a">Mesto</a></h3><p>` + desc + `</p><p>Druhý odsek už nie</p>`,
			"a|" + desc},
		{"not the next item of a list",
			`<ul><li><a href="a">Mesto</a></li><li>` + desc + `</li></ul>`,
			"a|"},
		{"not past a heading's next block when it is no paragraph",
			`<h3><a href="a">Mesto</a></h3><ul><li>` + desc + `</li></ul>`,
			"a|"},
		{"a link with text of its own keeps its own",
			`<table><tr><td>Navštívte <a href="a">Mesto</a> každý deň</td><td>` + desc + `</td></tr></table>`,
			"a|Navštívte každý deň"},
		{"a line with text of its own ends at the <br>",
			`<p>Navštívte <a href="a">Mesto</a> každý deň<br>` + desc + `</p>`,
			"a|Navštívte každý deň"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Extract(mustURL(t, "http://example.com/"), []byte(tc.html), Options{})
			var got []string
			for _, l := range p.Links {
				if l.Kind == Nav {
					got = append(got, strings.TrimPrefix(l.URL, "http://example.com/")+"|"+l.Context)
				}
			}
			if g := strings.Join(got, "\n"); g != tc.want {
				t.Errorf("got\n%s\nwant\n%s", g, tc.want)
			}
		})
	}
}
