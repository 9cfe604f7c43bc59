package detect

import "sort"

// Charsets returns the charsets the detector holds profiles of lang in
// (an ISO 639-1 code), UTF-8 first, then the legacy ones by name; nil for
// a language it does not know.
func (d *Detector) Charsets(lang string) []string {
	var out []string
	for cs, langs := range d.csLangs {
		if langs[lang] {
			out = append(out, cs)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i] == "utf-8") != (out[j] == "utf-8") {
			return out[i] == "utf-8"
		}
		return out[i] < out[j]
	})
	return out
}
